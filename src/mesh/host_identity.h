// What a mesh rank tells the others about itself, and what the report keeps of each host:
// where its server listens, and the device, driver, firmware, GID and kernel it measures with.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace rdmabench {

// {rank, hostname, address, port, device, driver, firmware, node_guid, gid, gid_index,
// gid_type, link_layer, kernel, rdma_core, timing, numa_node, pci, pcie_link, doctor (the
// compared findings of `rdmabench doctor` on this host and device), doctor_worst}. Opens `device`
// (empty: the first) to read it; throws Error(kNoDevice) when there is none.
nlohmann::json host_identity(int rank, const std::string& address, uint16_t port,
                             const std::string& device);

// The first IPv4 address of this host that is not loopback, or "" when there is none.
std::string first_ipv4_address();

}  // namespace rdmabench
