// libFuzzer target for what rank 0 of a mesh takes from another rank while the report is
// reduced (mesh_reduction.h, reduce_report.h): a rank's bytes, whatever they are, in place of
// its flagged pairs, its failed pairs, its counter names or a matrix row, then the report made,
// written and printed from them, and its --metrics text; or rank 0's copy of --topology or --pairs,
// which every rank parses; or, under --traffic, a rank's flows (traffic_rows.h), judged, reported
// and printed; or a rank's identity as every rank meets it (identity_check.h), then read as the job
// reads a server's. The first byte picks the step (0xff: the flows, 0xfe: the identity); the
// rest are the forged rank's bytes.
// An Error is the answer to bad input; any other exception, a crash or a sanitizer report is a
// finding.
//
// Built by ./tools/test with clang in build-fuzz/ (meson -Dfuzz=true), with ASan and UBSan.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "core/bounded_json.h"
#include "core/error.h"
#include "core/openmetrics.h"
#include "forging_report_ranks.h"
#include "mesh/host_differences.h"
#include "mesh/identity_check.h"
#include "mesh/matrix_sink.h"
#include "mesh/mesh_metrics.h"
#include "mesh/mesh_reduction.h"
#include "mesh/mesh_report_json.h"
#include "mesh/mesh_report_text.h"
#include "mesh/rank_place.h"
#include "mesh/reduce_report.h"
#include "mesh/report_ranks.h"
#include "mesh/schedule.h"
#include "mesh/topology.h"
#include "mesh/traffic_report.h"
#include "mesh/traffic_rows.h"

namespace {

using namespace rdmabench;

// Rank 0's rows as a mesh job holds them: a bandwidth, a resend rate and a failed pair.
RankRows rank0_rows() {
  BenchmarkRow b{"write/bw/busy/65536",
                 "bw",
                 {{"bytes_per_second", {NAN, 1e9}}, {"wire_resends_per_msg", {NAN, 0.5}}},
                 {{"write/bw/busy/65536", {0, 1}, {}, "refused", 3, "bw"}}};
  return {0, 2, {b}};
}

// A rank's forged flows under an incast of four ranks, twice over: read, judged with rank 0's
// own, the report's traffic section and verdict made, printed, and its --metrics text.
void forged_flows(const std::string& bytes) {
  const TrafficPlan plan = TrafficPlan::make(TrafficKind::kIncast, 4, 0);
  std::vector<FlowRow> rows = parse_rank_flows(bytes, 1, plan, 2);
  rows.push_back({1, 0, 2, 1e9, 0, ""});
  const TrafficVerdict v = judge_traffic(rows, 4, 0.8);
  nlohmann::json hosts = nlohmann::json::array();
  for (int r = 0; r < 4; ++r) hosts.push_back({{"rank", r}, {"hostname", "h"}});
  const TrafficReport report{
      {}, mesh_hosts(hosts), traffic_facts(plan, 1, 2, 1.0, 0.8, rows.size()), v, rows};
  std::ostringstream text;
  print_traffic_report(report, text);
  (void)traffic_report_json(report).dump();
  (void)openmetrics_text(traffic_metrics(&report, v.exit_code, 0));
}

// A rank's identity as the others meet it (mesh_job.cpp): parsed within the message bounds,
// checked, then its server slots' ports and its doctor findings against another host's.
void forged_identity(const std::string& bytes) {
  const nlohmann::json id =
      parse_bounded_json(bytes, kMessageBounds, ExitCode::kConnection, "fuzz");
  check_identity(id, 1);
  if (id.contains("error")) return;
  const nlohmann::json hosts = {
      {{"rank", 0}, {"hostname", "a"}, {"doctor", {{"port 1 MTU", "4096"}}}}, id};
  (void)differing_hosts(mesh_hosts(hosts));
  const RankPlace place = rank_place_of(id);
  for (int slot = 0; slot < 64; ++slot) (void)slot_port(place, slot);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const ForgingReportRanks ranks(rank0_rows(),
                                 std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
  try {
    const std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
    std::istringstream file(bytes);
    if (data[0] == 0xff) {
      forged_flows(bytes);
      return 0;
    }
    if (data[0] == 0xfe) {
      forged_identity(bytes);
      return 0;
    }
    switch (data[0] % 7) {
      case 5: {  // --topology as rank 0 read it, placed for a host and an address
        const Topology t = parse_topology(file, "fuzz");
        (void)rank_groups(t, {{"node01", "10.0.0.1"}});
        break;
      }
      case 6:  // --pairs as rank 0 read it, for a mesh of 64 ranks
        (void)rounds_from_pairs(parse_pairs(file, 64, "fuzz"));
        break;
      case 0:
        (void)flag_over_ranks(ranks, 0, "bytes_per_second", {2e9, false});
        break;
      case 1:
        (void)failures_over_ranks(ranks, 0);
        break;
      case 2:
        (void)counters_over_ranks(ranks, 0);
        break;
      default: {  // the whole report, matrices into it, its JSON, its summary and its metrics
        ReducedReport reduced =
            reduce_mesh_report(ranks, {{"write/bw/busy/65536", "bw"}}, {},
                               mesh_hosts(nlohmann::json::array({{}, {}})), {0.8, 0.01});
        MatricesInReport sink(reduced.report);
        stream_matrices(ranks, reduced, &sink);
        (void)mesh_report_json(reduced.report).dump();
        std::ostringstream text;
        print_mesh_report(reduced.report, text);
        (void)openmetrics_text(mesh_metrics(&reduced.report, 7, 0));  // --metrics from it
      }
    }
  } catch (const Error&) {
  }
  return 0;
}
