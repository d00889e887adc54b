#include "verbs/context.h"

#include <net/if.h>

#include <algorithm>
#include <utility>

#include "verbs/verbs_error.h"

namespace rdmabench {

namespace {
GidType from_verbs(uint32_t type) {
  switch (type) {
    case IBV_GID_TYPE_ROCE_V1:
      return GidType::kRoceV1;
    case IBV_GID_TYPE_ROCE_V2:
      return GidType::kRoceV2;
    default:
      return GidType::kIb;
  }
}

GidEntry from_verbs(const ibv_gid_entry& e, bool iwarp) {
  GidEntry out;
  out.index = e.gid_index;
  out.port = static_cast<uint8_t>(e.port_num);
  std::copy(std::begin(e.gid.raw), std::end(e.gid.raw), out.raw.begin());
  out.type = iwarp ? GidType::kIwarp : from_verbs(e.gid_type);
  if (e.ndev_ifindex != 0) {
    char name[IF_NAMESIZE] = {};
    if (if_indextoname(e.ndev_ifindex, name) != nullptr) out.netdev = name;
  }
  return out;
}
}  // namespace

Context::Context(ibv_context* context, Ownership ownership)
    : context_(context), ownership_(ownership) {}

Context::~Context() {
  if (context_ != nullptr && ownership_ == Ownership::kOwned) ibv_close_device(context_);
}

Context::Context(Context&& other) noexcept
    : context_(std::exchange(other.context_, nullptr)), ownership_(other.ownership_) {}

std::string Context::device_name() const {
  return ibv_get_device_name(context_->device);
}

ibv_device_attr Context::query_device() const {
  ibv_device_attr attr{};
  check_call(ibv_query_device(context_, &attr), "ibv_query_device", device_name());
  return attr;
}

ibv_cq_moderation_caps Context::cq_moderation_caps() const {
  ibv_device_attr_ex attr{};
  check_call(ibv_query_device_ex(context_, nullptr, &attr), "ibv_query_device_ex", device_name());
  return attr.cq_mod_caps;
}

ibv_port_attr Context::query_port(uint8_t port) const {
  ibv_port_attr attr{};
  check_call(ibv_query_port(context_, port, &attr), "ibv_query_port",
             device_name() + " port " + std::to_string(port));
  return attr;
}

std::vector<GidEntry> Context::query_gids() const {
  const ibv_device_attr dev = query_device();
  size_t capacity = 0;
  for (uint8_t p = 1; p <= dev.phys_port_cnt; ++p) capacity += query_port(p).gid_tbl_len;
  std::vector<ibv_gid_entry> raw(std::max<size_t>(capacity, 1));
  const ssize_t n = ibv_query_gid_table(context_, raw.data(), raw.size(), 0);
  if (n < 0) throw VerbsError("ibv_query_gid_table", static_cast<int>(-n), device_name());
  std::vector<GidEntry> out;
  out.reserve(static_cast<size_t>(n));
  for (ssize_t i = 0; i < n; ++i)
    out.push_back(from_verbs(raw[static_cast<size_t>(i)], is_iwarp()));
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.port != b.port ? a.port < b.port : a.index < b.index;
  });
  return out;
}

GidEntry Context::query_gid(uint8_t port, uint32_t index) const {
  ibv_gid_entry e{};
  const int rc = ibv_query_gid_ex(context_, port, index, &e, 0);
  check_call(
      rc, "ibv_query_gid_ex",
      device_name() + " port " + std::to_string(port) + " gid index " + std::to_string(index));
  return from_verbs(e, is_iwarp());
}

bool Context::is_iwarp() const noexcept {
  return context_->device->transport_type == IBV_TRANSPORT_IWARP;
}

std::vector<GidEntry> Context::query_gids(uint8_t port) const {
  std::vector<GidEntry> gids = query_gids();
  std::erase_if(gids, [&](const GidEntry& g) { return g.port != port; });
  return gids;
}

Fabric Context::fabric(uint8_t port) const {
  return fabric_of({.iwarp_transport = is_iwarp(),
                    .ethernet_link = query_port(port).link_layer == IBV_LINK_LAYER_ETHERNET,
                    .gids = query_gids(port)});
}

}  // namespace rdmabench
