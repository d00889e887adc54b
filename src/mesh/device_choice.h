// Which device a mesh rank measures with when no --device list is given. One rank per host
// takes the first device, as ever. With several ranks on a host (a GPU node runs one per NIC),
// its k-th rank takes its k-th active device (by name; a device with an ACTIVE port) and the IPv4
// address of that port's netdev; a host with fewer active devices than ranks is refused, naming the
// host and what to give, on every rank (the mesh gathers each rank's failure).
#pragma once

#include <string>
#include <vector>

#include "core/device_report.h"

namespace rdmabench {

struct RankDevice {
  std::string device;   // "": the first device (one rank on the host)
  std::string address;  // "": the host's first IPv4 address
  std::string choice;   // what the report says of the choice
};

// The choice for a host's `local_rank` among `local_size` ranks, from the host's devices and
// each netdev's IPv4 address (`address_of`, by netdev name; "" when it has none). Throws
// Error(kUsage) when the host cannot give each rank its own device.
RankDevice default_device_for(int local_rank, int local_size,
                              const std::vector<DeviceReport>& devices,
                              std::string (*address_of)(const std::string& netdev),
                              const std::string& host);

}  // namespace rdmabench
