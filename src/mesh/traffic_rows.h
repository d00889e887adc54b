// A rank's traffic flows on their way to rank 0: the text a rank sends, and rank 0's reading of
// it. They are another rank's bytes, so rank 0 bounds them before parsing and keeps a row only
// when the plan gives that rank that flow, once, with figures a run can produce.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mesh/pair_result.h"
#include "mesh/traffic.h"
#include "mesh/traffic_verdict.h"

namespace rdmabench {

// The flow a client rank measured in `round` (repetition * plan rounds + the plan's round).
FlowRow flow_row(const PairResult& result, uint32_t round);

// [[round, server, bytes_per_second, exit_code, error], ...]; an error cut to 200 characters.
std::string rank_flows_text(const std::vector<FlowRow>& mine);

// The most bytes rank_flows_text makes for any rank of `plan` over `repetitions`.
size_t rank_flows_max_bytes(const TrafficPlan& plan, uint32_t repetitions);

// `rank`'s rows from its text; Error(kConnection) naming the rank and what is wrong: text
// beyond the bound or not JSON, a row of another shape, a round beyond the plan's, a flow the
// plan does not give `rank`, a flow twice, a figure that is negative or not finite, an exit
// code outside the table. Errors are made printable.
std::vector<FlowRow> parse_rank_flows(std::string_view text, int rank, const TrafficPlan& plan,
                                      uint32_t repetitions);

}  // namespace rdmabench
