#include "core/device_report_json.h"

#include "core/version.h"

namespace rdmabench {

nlohmann::json to_json(const GidEntry& gid) {
  nlohmann::json j = {{"index", gid.index},
                      {"gid", format_gid(gid.raw)},
                      {"type", to_string(gid.type)},
                      {"netdev", gid.netdev}};
  // NOLINTNEXTLINE(bugprone-branch-clone): clang-tidy 14 takes "ipv4" and "ipv6" for one literal
  if (auto v4 = mapped_ipv4(gid.raw)) {
    j["ipv4"] = *v4;
  } else if (gid.type != GidType::kIwarp &&
             (!is_ipv6_link_local(gid.raw) || gid.type != GidType::kIb)) {
    j["ipv6"] = format_gid(gid.raw);
  }
  return j;
}

nlohmann::json to_json(const PortReport& port) {
  nlohmann::json gids = nlohmann::json::array();
  for (const auto& g : port.gids) gids.push_back(to_json(g));
  return {{"port", port.number},
          {"state", port.state},
          {"link_layer", port.link_layer},
          {"fabric", port.fabric},
          {"active_mtu", port.active_mtu},
          {"max_mtu", port.max_mtu},
          {"speed_gbps", port.speed_gbps},
          {"width", port.width},
          {"lid", port.lid},
          {"netdev", port.netdev},
          {"gids", gids},
          {"default_gid_index", port.default_gid_index ? nlohmann::json(*port.default_gid_index)
                                                       : nlohmann::json(nullptr)}};
}

nlohmann::json to_json(const DeviceReport& device) {
  nlohmann::json ports = nlohmann::json::array();
  for (const auto& p : device.ports) ports.push_back(to_json(p));
  return {{"name", device.name},
          {"driver", device.driver},
          {"node_guid", device.node_guid},
          {"firmware", device.firmware},
          {"vendor_id", device.vendor_id},
          {"vendor_part_id", device.vendor_part_id},
          {"sends_from_kernel_thread", device.sends_from_kernel_thread},
          {"max_qp_wr", device.max_qp_wr},
          {"max_sge", device.max_sge},
          {"max_mr_size", device.max_mr_size},
          {"ports", ports}};
}

nlohmann::json devices_document(const std::vector<DeviceReport>& devices) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& d : devices) list.push_back(to_json(d));
  return {{"schema", kDevicesSchemaVersion}, {"rdmabench_version", kVersion}, {"devices", list}};
}

}  // namespace rdmabench
