// The hosts of a mesh whose pre-flight facts differ from the rest (each rank's doctor,
// MeshHost::doctor: {key: value} such as "port 1 MTU": "1024", "firmware": "28.39.1002",
// "PCIe link": "16.0 GT/s x8 (maximum 16.0 GT/s x16)"). A pure function of the identities.
#pragma once

#include <vector>

#include "mesh/mesh_report.h"

namespace rdmabench {

// Each host whose value of a key is not the most common one among the hosts that report the
// key; where no value is more common than every other (two hosts that disagree), every host is
// named, without a usual value.
std::vector<HostDifference> differing_hosts(const std::vector<MeshHost>& hosts);

}  // namespace rdmabench
