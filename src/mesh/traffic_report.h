// The report of `mesh --traffic`: its "traffic" section (each host's load under the pattern,
// the failed flows) and verdict in the mesh report's JSON, and the summary a person reads.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <vector>

#include "mesh/traffic.h"
#include "mesh/traffic_verdict.h"

namespace rdmabench {

// Failed flows listed in the report; the count covers them all.
inline constexpr size_t kListedFailedFlows = 1000;

struct TrafficFacts {
  const TrafficPlan& plan;
  uint32_t streams = 1;  // QPs per flow
  uint32_t repetitions = 1;
  double duration_s = 0;  // each flow's timed window
  double min_fraction = 0.8;
  size_t flows = 0;  // measured, over every round and repetition
};

// The report's "traffic" section; `failed`: the failed flows, the first kListedFailedFlows.
nlohmann::json traffic_section(const TrafficFacts& facts, const TrafficVerdict& verdict,
                               const std::vector<FlowRow>& failed);
// The report's "verdict" for a traffic mesh (the pairs' keys, so that readers of either agree).
nlohmann::json traffic_verdict_json(const TrafficVerdict& verdict);

// Each host's load (best round, sent and received then, worst round), the failed flows and
// the verdict.
void print_traffic_report(const nlohmann::json& report, std::ostream& out);

}  // namespace rdmabench
