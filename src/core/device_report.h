// What `rdmabench devices` reports about each RDMA device: plain data (host/device_probe
// fills it from verbs).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/gid.h"

namespace rdmabench {

struct PortReport {
  uint8_t number = 1;
  std::string state;        // "ACTIVE", "DOWN", ... (as `rdma link` spells it)
  std::string link_layer;   // "Ethernet" or "InfiniBand"
  std::string fabric;       // "InfiniBand", "RoCE v1", "RoCE v2" or "iWARP" (to_string(Fabric))
  uint32_t active_mtu = 0;  // bytes
  uint32_t max_mtu = 0;     // bytes
  double speed_gbps = 0;    // active width x lane speed
  std::string width;        // "1X", "4X", ...
  uint16_t lid = 0;
  std::string netdev;  // the Ethernet device behind a RoCE or iWARP port, if known
  std::vector<GidEntry> gids;
  std::optional<uint32_t> default_gid_index;
};

struct DeviceReport {
  std::string name;
  std::string driver;  // the kernel driver: sysfs's, or the software device's ("rxe", "siw")
  std::string node_guid;
  std::string firmware;
  uint32_t vendor_id = 0;
  uint32_t vendor_part_id = 0;
  bool sends_from_kernel_thread = false;  // provider_facts.h: a spinning sender holds it off
  uint32_t max_qp_wr = 0;
  uint32_t max_sge = 0;
  uint64_t max_mr_size = 0;
  std::vector<PortReport> ports;
};

// The port a run on this device takes when none is named: its first ACTIVE one (a dual-port
// NIC may be cabled on its second port alone); nullptr when no port is ACTIVE.
const PortReport* first_active_port(const DeviceReport& device);
// Not of a temporary report: the pointer would outlive it (a search took "--ib-port 40").
const PortReport* first_active_port(const DeviceReport&& device) = delete;

// Unit helpers, exposed for tests.
uint32_t mtu_bytes(int ibv_mtu_value);
double lane_speed_gbps(uint8_t active_speed);
int width_lanes(uint8_t active_width);
// A port's active link as reports give it: lanes x lane speed, and the width ("4X").
double link_speed_gbps(uint8_t active_speed, uint8_t active_width);
std::string link_width(uint8_t active_width);

}  // namespace rdmabench
