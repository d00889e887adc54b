// `rdmabench mesh --metrics FILE`: the mesh's verdict as metrics for a monitoring system
// (core/openmetrics.h), written by rank 0 from the report it reduced (mesh_report.h,
// traffic_report.h). No pair matrix: N(N-1) series would swamp a time-series database at 16,384
// ranks. Instead the verdict's counts, each benchmark's median and threshold, and three 0/1
// gauges per host (slow, resending, set up differently), so that an alert can name a host.
#pragma once

#include <vector>

#include "core/openmetrics.h"
#include "mesh/mesh_report.h"
#include "mesh/traffic_report.h"

namespace rdmabench {

// `report`: rank 0's reduced report; null when the mesh ended before it (the exit code alone).
std::vector<MetricFamily> mesh_metrics(const MeshReport* report, int exit_code,
                                       double finished_unix_s);
// The same of a traffic mesh, with each host's best and worst round.
std::vector<MetricFamily> traffic_metrics(const TrafficReport* report, int exit_code,
                                          double finished_unix_s);

}  // namespace rdmabench
