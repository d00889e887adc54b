// The report of `mesh --traffic`: its "traffic" section (each host's load under the pattern,
// the failed flows) and verdict, its JSON, and the summary a person reads.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <vector>

#include "mesh/mesh_report.h"
#include "mesh/traffic.h"
#include "mesh/traffic_verdict.h"

namespace rdmabench {

// Failed flows listed in the report; the count covers them all.
inline constexpr size_t kListedFailedFlows = 1000;

// What the traffic mesh ran.
struct TrafficFacts {
  TrafficKind pattern = TrafficKind::kPairs;
  int fan = 0;
  size_t rounds = 0;
  uint32_t streams = 1;  // QPs per flow
  uint32_t repetitions = 1;
  double duration_s = 0;  // each flow's timed window
  double min_fraction = 0.8;
  size_t flows = 0;  // measured, over every round and repetition
};
// `streams`..`flows` of a plan's run.
TrafficFacts traffic_facts(const TrafficPlan& plan, uint32_t streams, uint32_t repetitions,
                           double duration_s, double min_fraction, size_t flows);

// The report of a traffic mesh, at rank 0.
struct TrafficReport {
  nlohmann::json context;  // the run's context as the job wrote it
  std::vector<MeshHost> hosts;
  TrafficFacts facts;
  TrafficVerdict verdict;
  std::vector<FlowRow> failed;  // the first kListedFailedFlows failed flows
};

// The report as its file holds it: context, hosts, an empty benchmarks list, the "traffic"
// section and the verdict (under the pairs' keys, so that readers of either agree).
nlohmann::json traffic_report_json(const TrafficReport& report);

// Each host's load (best round, sent and received then, worst round), the failed flows and
// the verdict.
void print_traffic_report(const TrafficReport& report, std::ostream& out);

}  // namespace rdmabench
