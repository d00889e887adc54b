// Filling device reports from verbs (what `rdmabench devices` and the run context show).
#include "host/device_probe.h"

#include <infiniband/verbs.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>

#include "core/fabric.h"
#include "core/provider_facts.h"
#include "verbs/context.h"
#include "verbs/device_list.h"

namespace rdmabench {

namespace {

// The spelling `rdma link` uses: "ACTIVE", "DOWN", ...
std::string port_state_name(ibv_port_state state) {
  std::string text = ibv_port_state_str(state);
  for (auto& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

std::string guid_text(__be64 guid) {
  const uint64_t host = be64toh(guid);
  char text[24];
  std::snprintf(text, sizeof(text), "%04x:%04x:%04x:%04x", static_cast<unsigned>(host >> 48),
                static_cast<unsigned>((host >> 32) & 0xffff),
                static_cast<unsigned>((host >> 16) & 0xffff), static_cast<unsigned>(host & 0xffff));
  return text;
}

// "88:2d:3d:c2:f3:e1" as bytes; nullopt when it is not six hex pairs.
std::optional<std::array<uint8_t, 6>> parse_mac(const std::string& text) {
  std::array<uint8_t, 6> mac{};
  unsigned b[6];
  if (std::sscanf(text.c_str(), "%2x:%2x:%2x:%2x:%2x:%2x", &b[0], &b[1], &b[2], &b[3], &b[4],
                  &b[5]) != 6)
    return std::nullopt;
  for (int i = 0; i < 6; ++i) mac[i] = static_cast<uint8_t>(b[i]);
  return mac;
}

}  // namespace

std::string driver_of(const std::filesystem::path& sysfs, const std::string& device,
                      uint32_t vendor_id) {
  namespace fs = std::filesystem;
  const fs::path base = sysfs / "class" / "infiniband" / device;
  std::error_code ec;
  const fs::path link = fs::read_symlink(base / "device" / "driver", ec);
  if (!ec) return link.filename().string();
  if (const auto provider = provider_by_vendor(vendor_id)) return provider->driver;
  return "unknown";
}

std::string netdev_of_mac_gid(const std::filesystem::path& sysfs, const RawGid& gid) {
  namespace fs = std::filesystem;
  std::array<uint8_t, 6> made{};
  std::copy_n(gid.begin(), 6, made.begin());
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(sysfs / "class" / "net", ec)) {
    std::ifstream file(entry.path() / "address");
    std::string text;
    if (std::getline(file, text) && parse_mac(text) == made) return entry.path().filename();
  }
  return "";
}

DeviceReport describe_device(const Context& context) {
  const ibv_device_attr dev = context.query_device();
  DeviceReport report;
  report.name = context.device_name();
  report.driver = driver_of("/sys", report.name, dev.vendor_id);
  report.node_guid = guid_text(dev.node_guid);
  report.firmware = dev.fw_ver;
  report.vendor_id = dev.vendor_id;
  report.sends_from_kernel_thread = sends_from_kernel_thread(dev.vendor_id);
  report.vendor_part_id = dev.vendor_part_id;
  report.max_qp_wr = static_cast<uint32_t>(dev.max_qp_wr);
  report.max_sge = static_cast<uint32_t>(dev.max_sge);
  report.max_mr_size = dev.max_mr_size;

  const std::vector<GidEntry> all_gids = context.query_gids();
  for (uint8_t p = 1; p <= dev.phys_port_cnt; ++p) {
    const ibv_port_attr attr = context.query_port(p);
    PortReport port;
    port.number = p;
    port.state = port_state_name(attr.state);
    port.link_layer = attr.link_layer == IBV_LINK_LAYER_ETHERNET ? "Ethernet" : "InfiniBand";
    port.active_mtu = mtu_bytes(attr.active_mtu);
    port.max_mtu = mtu_bytes(attr.max_mtu);
    port.speed_gbps = link_speed_gbps(attr.active_speed, attr.active_width);
    port.width = link_width(attr.active_width);
    port.lid = attr.lid;
    for (const auto& g : all_gids) {
      if (g.port != p) continue;
      port.gids.push_back(g);
      if (port.netdev.empty()) port.netdev = g.netdev;
      if (port.netdev.empty() && g.type == GidType::kIwarp)
        port.netdev = netdev_of_mac_gid("/sys", g.raw);
    }
    port.default_gid_index = choose_default_gid(
        port.gids, attr.link_layer != IBV_LINK_LAYER_ETHERNET || context.is_iwarp());
    // From the GIDs read above (Context::fabric would read the whole table again per port).
    port.fabric = to_string(fabric_of({.iwarp_transport = context.is_iwarp(),
                                       .ethernet_link = attr.link_layer == IBV_LINK_LAYER_ETHERNET,
                                       .gids = port.gids}));
    report.ports.push_back(std::move(port));
  }
  return report;
}

std::vector<DeviceReport> describe_all_devices() {
  DeviceList list;
  std::vector<DeviceReport> out;
  for (const auto& name : list.names()) out.push_back(describe_device(list.open(name)));
  return out;
}

}  // namespace rdmabench
