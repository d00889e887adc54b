// `rdmabench doctor --metrics FILE`: the findings as metrics for a monitoring system
// (core/openmetrics.h): each check's level on each subject (0 ok, 1 warn, 2 fail), the facts a
// mesh compares between hosts (firmware, MTU, link, PCIe link) as info-style gauges of 1, and the
// exit status.
#pragma once

#include <string>
#include <vector>

#include "core/openmetrics.h"
#include "host/doctor_finding.h"

namespace rdmabench {

std::vector<MetricFamily> doctor_metrics(const std::vector<Finding>& findings, int exit_status,
                                         const std::string& host);

}  // namespace rdmabench
