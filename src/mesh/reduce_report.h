// The mesh's report (mesh_report.h) reduced over the ranks: one N x N matrix per counter the
// engine reported for each measured mode, and the outlier verdict on each mode's figure. Each
// rank holds its own rows (report_ranks.h): no rank holds the matrices, and rank 0 hands them
// to a sink as their rows arrive (matrix_sink.h). A pair that resent too much counts as an
// outlier (exit 7) even where its bandwidth is fine.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "mesh/mesh_report.h"
#include "mesh/pair_result.h"
#include "mesh/report_scope.h"

namespace rdmabench {

class ReportRanks;
class MatrixSink;

// What every rank learns of the report: which benchmarks it names (their index among the
// ranks' rows) and each one's matrices; at rank 0 the report itself, without the matrices.
struct ReducedReport {
  MeshReport report;                                      // rank 0's; empty elsewhere
  std::vector<size_t> benchmarks;                         // rows' index of report benchmark i
  std::vector<std::vector<std::string>> matrix_counters;  // by report benchmark, sorted
};

// The groups of a mesh with a topology (topology.h): each rank's group index, each index's
// name. Given, each verdict also names the groups whose every pair with the others is flagged
// (slow_groups, resending_groups).
struct MeshGroups {
  std::vector<int> of_rank;
  std::vector<std::string> names;
};

// Every rank calls these together, with the same `benchmarks` (rank_rows.h: the order of
// every rank's rows) and groups; `context` and `hosts` matter at rank 0 only.
ReducedReport reduce_mesh_report(const ReportRanks& ranks,
                                 const std::vector<std::pair<std::string, std::string>>& benchmarks,
                                 const nlohmann::json& context, std::vector<MeshHost> hosts,
                                 const MeshJudgement& judge, const MeshGroups* groups = nullptr);
// Each matrix, row by row in rank order, into `sink` at rank 0 (nullptr elsewhere).
void stream_matrices(const ReportRanks& ranks, const ReducedReport& reduced, MatrixSink* sink);

// The whole report of results held in one process (every rank's, one per pair), matrices in
// it, of the counters `scope` keeps (report_scope.h), the wire_resends_per_msg matrix among
// them. `hosts`: the ranks' identities.
MeshReport mesh_report(const nlohmann::json& context, const nlohmann::json& hosts,
                       const std::vector<PairResult>& results, const MeshJudgement& judge,
                       MatrixScope scope = MatrixScope::kAll);

}  // namespace rdmabench
