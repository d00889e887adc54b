// How the search spends its budget. guided_search: the base and each one-option change of it
// first, each alone (a point rule judges them at once), then coarse lines through them along
// every dimension a rule judges (the changes of a kind first: pattern, mode, ...), refinement
// around
// each violation, largest first: the values the coarse line skipped between its two points,
// and the same two points moved one step in every other option (what that finds is narrowed
// too, not moved again); what budget is left goes to random lines, refined the same way.
// random_search: the baseline it is compared with, short random lines (four neighbouring values
// through a random point), nothing refined.
#pragma once

#include <cstdint>
#include <vector>

#include "search/expectation_rules.h"
#include "search/measured_points.h"
#include "search/search_space.h"

namespace rdmabench {

// Values on a coarse line.
inline constexpr size_t kCoarseLinePoints = 5;

std::vector<Violation> guided_search(const SearchSpace& space, const std::vector<Rule>& rules,
                                     MeasuredPoints& measured, uint32_t seed,
                                     const std::vector<Point>& cover_rows);
std::vector<Violation> random_search(const SearchSpace& space, const std::vector<Rule>& rules,
                                     MeasuredPoints& measured, uint32_t seed);

}  // namespace rdmabench
