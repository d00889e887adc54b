// One whole search: its budget spent first on finding violations (kSearchShare of it), the
// rest on shrinking each to a finding and measuring each finding afresh; what shrinking does
// not need goes back to finding (search_run.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "search/expectation_rules.h"
#include "search/finding.h"
#include "search/measured_points.h"
#include "search/search_space.h"

namespace rdmabench {

enum class SearchMethod { kGuided, kRandom };

inline constexpr double kSearchShare = 0.7;

struct SearchResult {
  std::vector<Violation> violations;    // as the search found them
  std::vector<SearchFinding> findings;  // shrunk, replayed
  size_t search_measurements = 0;       // measurements before shrinking
};

SearchResult run_search(const SearchSpace& space, const std::vector<Rule>& rules,
                        MeasuredPoints& measured, SearchMethod method, uint32_t seed);

}  // namespace rdmabench
