// One whole search: its budget spent first on finding violations (kSearchShare of it), the
// rest on shrinking each to a candidate and measuring each candidate again (confirmation.h);
// what shrinking does not need goes back to finding (search_run.cpp). Only a candidate that
// held when measured again is a finding. A point limit (MeasuredPoints::set_point_limit, search
// --points) holds the finding alone: shrinking and confirming are held to the time budget.
#pragma once

#include <cstdint>
#include <vector>

#include "search/expectation_rules.h"
#include "search/finding.h"
#include "search/measured_points.h"
#include "search/pair_cover.h"
#include "search/search_space.h"
#include "search/window_resolution.h"

namespace rdmabench {

enum class SearchMethod { kGuided, kRandom };

inline constexpr double kSearchShare = 0.7;

struct SearchResult {
  std::vector<Violation> violations;       // as the search found them
  std::vector<SearchFinding> findings;     // shrunk, confirmed
  std::vector<SearchFinding> unconfirmed;  // shrunk, then not shown again (or not measured
                                           // again: the budget ended)
  size_t search_measurements = 0;          // measurements before shrinking
  // Pairs of values of two unordered options (pair_cover.h): how many the space has, how
  // many the target takes no point of, how many the points measured (and run) hold, and the
  // rows drawn to cover them (guided: before the random lines).
  size_t pairs = 0, pairs_refused = 0, pairs_covered = 0, cover_rows = 0;
  WindowTally windows;  // what the rate rules' points' windows could resolve
};

SearchResult run_search(const SearchSpace& space, const std::vector<Rule>& rules,
                        MeasuredPoints& measured, SearchMethod method, uint32_t seed);

}  // namespace rdmabench
