#include "core/device_report.h"

#include <infiniband/verbs.h>

namespace rdmabench {

const PortReport* first_active_port(const DeviceReport& device) {
  for (const PortReport& port : device.ports)
    if (port.state == "ACTIVE") return &port;
  return nullptr;
}

uint32_t mtu_bytes(int ibv_mtu_value) {
  if (ibv_mtu_value < IBV_MTU_256 || ibv_mtu_value > IBV_MTU_4096) return 0;
  return 256u << (ibv_mtu_value - IBV_MTU_256);
}

double lane_speed_gbps(uint8_t active_speed) {
  switch (active_speed) {
    case 1:
      return 2.5;  // SDR
    case 2:
      return 5.0;  // DDR
    case 4:
    case 8:
      return 10.0;  // QDR, FDR10
    case 16:
      return 14.0625;  // FDR
    case 32:
      return 25.78125;  // EDR
    case 64:
      return 53.125;  // HDR
    case 128:
      return 106.25;  // NDR
    default:
      return 0.0;
  }
}

int width_lanes(uint8_t active_width) {
  switch (active_width) {
    case 1:
      return 1;
    case 2:
      return 4;
    case 4:
      return 8;
    case 8:
      return 12;
    case 16:
      return 2;
    default:
      return 0;
  }
}

double link_speed_gbps(uint8_t active_speed, uint8_t active_width) {
  return lane_speed_gbps(active_speed) * width_lanes(active_width);
}

std::string link_width(uint8_t active_width) {
  return std::to_string(width_lanes(active_width)) + "X";
}

}  // namespace rdmabench
