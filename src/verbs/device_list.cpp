#include "verbs/device_list.h"

#include "verbs/verbs_error.h"

namespace rdmabench {

DeviceList::DeviceList() {
  errno = 0;
  devices_ = ibv_get_device_list(&count_);
  if (devices_ == nullptr) {
    // libibverbs returns NULL with ENOSYS when the kernel has no RDMA support at all.
    if (errno == ENOSYS) {
      count_ = 0;
      return;
    }
    throw VerbsError("ibv_get_device_list", errno != 0 ? errno : ENODEV);
  }
}

DeviceList::~DeviceList() {
  if (devices_ != nullptr) ibv_free_device_list(devices_);
}

std::vector<std::string> DeviceList::names() const {
  std::vector<std::string> out;
  for (int i = 0; i < count_; ++i) out.emplace_back(ibv_get_device_name(devices_[i]));
  return out;
}

Context DeviceList::open(const std::string& name) const {
  if (count_ == 0) throw Error(ExitCode::kNoDevice, no_device_advice());
  for (int i = 0; i < count_; ++i) {
    if (name.empty() || name == ibv_get_device_name(devices_[i])) {
      ibv_context* ctx = check_ptr(ibv_open_device(devices_[i]), "ibv_open_device",
                                   ibv_get_device_name(devices_[i]));
      return Context(ctx, Context::Ownership::kOwned);
    }
  }
  std::string known;
  for (const auto& n : names()) known += (known.empty() ? "" : ", ") + n;
  throw Error(ExitCode::kNoDevice,
              "RDMA device '" + name + "' not found; devices present: " + known);
}

}  // namespace rdmabench
