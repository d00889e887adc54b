// One benchmark's verdict reduced over the ranks (report_ranks.h), each rank holding only its
// own row: the median by selection over sums of histograms (no rank ever sees every value),
// the flagged pairs, and the hosts whose whole row or column is flagged, as outliers.h defines
// them; the pairs named in the report are capped (the counts are not).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mesh/mesh_report.h"
#include "mesh/outliers.h"
#include "mesh/report_ranks.h"

namespace rdmabench {

// Pairs and failures named one by one in a report, at most (every one is counted).
inline constexpr size_t kListedPairs = 100000;
inline constexpr size_t kListedErrors = 1000;

// The median of benchmark `b`'s `counter` over every rank's row (NaN cells left out); of an
// even count the better middle value (outliers.h); 0 when there is none.
double median_over_ranks(const ReportRanks& ranks, size_t b, const std::string& counter,
                         bool higher_is_better);

// Which values are flagged: those beyond `threshold`, above it or below it.
struct FlagRule {
  double threshold = 0;
  bool above = true;
};

// The flagged pairs of `counter` (the first kListedPairs, in rank order; flagged_pairs counts
// them all) and the hosts whose every measured pair in their row (sender) or column (receiver)
// is flagged. `median` and `threshold` are left to the caller.
OutlierReport flag_over_ranks(const ReportRanks& ranks, size_t b, const std::string& counter,
                              FlagRule rule);

// The groups (a rack, a leaf switch: `group_of` each rank's index) whose every measured pair
// with another group, either way, is flagged while their pairs within the group are not all
// flagged: an uplink, not each of the group's hosts. A group with no pair across is none.
std::vector<int> flag_groups_over_ranks(const ReportRanks& ranks, size_t b,
                                        const std::string& counter, FlagRule rule,
                                        const std::vector<int>& group_of, size_t groups);

// A benchmark's failed pairs: the first kListedErrors as the report lists them (fewer where a
// rank's would not fit the message bound), how many there were, the highest exit code among
// them, and whether any rank has any result of it at all.
struct BenchmarkFailures {
  std::vector<PairFailure> listed;
  size_t count = 0;
  int worst_exit_code = 0;
  bool any_result = false;
};
BenchmarkFailures failures_over_ranks(const ReportRanks& ranks, size_t b);

// Every counter any rank holds a row of for benchmark `b`, sorted, the same on every rank.
std::vector<std::string> counters_over_ranks(const ReportRanks& ranks, size_t b);

}  // namespace rdmabench
