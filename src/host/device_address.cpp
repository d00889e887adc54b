#include "host/device_address.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>

#include <cstring>

namespace rdmabench {

std::optional<std::string> netdev_ipv4(const std::string& netdev) {
  ifaddrs* all = nullptr;
  if (getifaddrs(&all) != 0) return std::nullopt;
  std::optional<std::string> found;
  for (const ifaddrs* a = all; a != nullptr && !found; a = a->ifa_next) {
    if (a->ifa_addr == nullptr || a->ifa_addr->sa_family != AF_INET || netdev != a->ifa_name)
      continue;
    char text[INET_ADDRSTRLEN] = {};
    const auto* in = reinterpret_cast<const sockaddr_in*>(a->ifa_addr);
    if (inet_ntop(AF_INET, &in->sin_addr, text, sizeof text) != nullptr) found = text;
  }
  freeifaddrs(all);
  return found;
}

std::optional<std::string> device_ipv4(const DeviceReport& device,
                                       const NetdevAddress& netdev_address) {
  for (const PortReport& port : device.ports) {
    if (port.state != "ACTIVE") continue;
    for (const GidEntry& gid : port.gids)
      if (auto v4 = mapped_ipv4(gid.raw)) return v4;
    if (!port.netdev.empty())
      if (auto v4 = netdev_address(port.netdev)) return v4;
  }
  return std::nullopt;
}

}  // namespace rdmabench
