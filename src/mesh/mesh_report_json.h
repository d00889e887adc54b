// A mesh report (mesh_report.h) as its file holds it (docs/mesh.schema.json): the one place
// its JSON is written. mesh_report_file.h streams the matrices beside these pieces.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <vector>

#include "mesh/mesh_report.h"

namespace rdmabench {

// Each host's identity as its rank told it, with its group's name where it has one.
nlohmann::json hosts_json(const std::vector<MeshHost>& hosts);
nlohmann::json host_differences_json(const std::vector<HostDifference>& differences);
nlohmann::json verdict_json(const MeshVerdict& verdict);
// A benchmark without its matrices.
nlohmann::json benchmark_json(const MeshBenchmark& benchmark);
// A matrix's row: numbers, null where NaN or infinite.
nlohmann::json row_json(std::span<const double> values);

// The whole report, each benchmark with the matrices it holds.
nlohmann::json mesh_report_json(const MeshReport& report);

}  // namespace rdmabench
