#include "verbs/no_device_advice.h"

#include <unistd.h>

#include <algorithm>
#include <system_error>

namespace rdmabench {

namespace {

std::vector<std::string> entries(const std::filesystem::path& folder, const std::string& prefix) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(folder, ec)) {
    const std::string name = e.path().filename().string();
    if (name.starts_with(prefix)) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& n : names) text += (text.empty() ? "" : ", ") + n;
  return text;
}

// The first cause this host shows, with what to do about it.
std::string cause(const NoDeviceFacts& f) {
  if (!f.closed_uverbs.empty())
    return "this user cannot open " + joined(f.closed_uverbs) +
           ": run as root, or join the group that owns them (often 'rdma')";
  if (!f.kernel_devices.empty())
    return "the kernel has " + joined(f.kernel_devices) +
           " but no user-space provider answered for it: install the provider (Debian: "
           "ibverbs-providers) and check /etc/libibverbs.d" +
           (f.uverbs_module ? "" : "; load ib_uverbs (modprobe ib_uverbs)");
  return std::string(
             "the kernel has no RDMA device: load your NIC's RDMA driver (mlx5_ib, "
             "irdma, bnxt_re, efa, ...)") +
         (f.uverbs_module ? "" : " and ib_uverbs (modprobe ib_uverbs)") +
         "; with no RDMA NIC, make a Soft-RoCE device over an Ethernet interface: "
         "rdma link add rxe0 type rxe netdev eth0 (kernel module rdma_rxe), or a software "
         "iWARP one: rdma link add siw0 type siw netdev eth0 (kernel module siw)";
}

}  // namespace

NoDeviceFacts read_no_device_facts(const std::filesystem::path& root) {
  NoDeviceFacts f;
  f.kernel_devices = entries(root / "sys/class/infiniband", "");
  std::error_code ec;
  f.uverbs_module = std::filesystem::exists(root / "sys/module/ib_uverbs", ec);
  for (const auto& name : entries(root / "dev/infiniband", "uverbs")) {
    const auto path = root / "dev/infiniband" / name;
    if (access(path.c_str(), R_OK | W_OK) != 0) f.closed_uverbs.push_back(path.string());
  }
  return f;
}

std::string no_device_advice(const NoDeviceFacts& facts) {
  return "no RDMA device found: " + cause(facts) +
         ". Then `rdmabench devices` lists it and `rdmabench doctor` checks the rest (the "
         "memlock limit, ulimit -l, against what a run registers).";
}

std::string no_device_advice() {
  return no_device_advice(read_no_device_facts("/"));
}

}  // namespace rdmabench
