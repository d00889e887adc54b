// What a mesh rank tells the others about itself, and what the report keeps of each host:
// where its server listens, and the device, driver, firmware, GID and kernel it measures with.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/device_report.h"

namespace rdmabench {

// {rank, hostname, address, port, device, driver, firmware, node_guid, ib_port, gid, gid_index,
// gid_type, link_layer, fabric, port_state, kernel, rdma_core, timing, numa_node, pci, pcie_link,
// doctor (the compared findings of `rdmabench doctor` on this host and device), doctor_worst}.
// Opens `device` (empty: the first) to read it; throws Error(kNoDevice) when there is none.
nlohmann::json host_identity(int rank, const std::string& address, uint16_t port,
                             const std::string& device);

// The facts of the port a rank measures with: the device's first ACTIVE port (its first when
// none is): {ib_port, link_layer, fabric, port_state} and its default GID's {gid_index, gid,
// gid_type}; empty for a device without ports.
nlohmann::json port_identity(const DeviceReport& report);

// The first IPv4 address of this host that is not loopback, or "" when there is none.
std::string first_ipv4_address();

}  // namespace rdmabench
