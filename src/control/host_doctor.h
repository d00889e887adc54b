// `rdmabench doctor`'s findings on this host, as the doctor command and each mesh rank ask for
// them: the facts gathered (host/doctor_facts) with what a default run registers, which only
// the layers that know the patterns and the streams' sizing can say.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "host/doctor_finding.h"

namespace rdmabench {

// The most one side of a default `rdmabench run` registers: every registered pattern, bw
// and lat, at each default size it accepts, one QP.
uint64_t default_run_registered_bytes();

// Every finding on this host (the no-device finding when it has none).
std::vector<Finding> doctor_findings();

// What a mesh rank compares with the others: {key: value} of the compared findings about
// `device` and the host, the key the finding's check with the device's name left out
// ("port 1 MTU", "firmware", "PCIe link", "CPU frequency").
nlohmann::json compared_findings(const std::vector<Finding>& findings, const std::string& device);

}  // namespace rdmabench
