// A candidate measured again before it is reported: the points its rule judges it on (the
// two; a step's neighbours too; a point rule's one point), one repetition of each in turn
// (A B A B ...), so that a one-off at either point, or the target drifting while one was
// measured, does not pass for an anomaly. A candidate is a finding only when its rule breaks
// again between the same two points; the search counts those that did not.
#pragma once

#include <optional>
#include <vector>

#include "search/expectation_rules.h"
#include "search/finding.h"
#include "search/measured_points.h"
#include "search/search_space.h"

namespace rdmabench {

struct Judgement {
  std::optional<Violation> holds;    // the rule broke again between the two points
  std::vector<MeasuredPoint> again;  // what was measured, in the line's order
};

// The rule judged at `low`, `high` on fresh, interleaved measurements of its points (none of
// them kept among the search's measured points).
Judgement judge_again(const SearchSpace& space, MeasuredPoints& measured, const Rule& rule,
                      const Point& low, const Point& high);
// How many points a confirmation of `v` measures.
size_t points_judged(const SearchSpace& space, const Violation& v);
// The finding's confirmation: measured again (while the budget has room), confirmed or not.
void confirm(const SearchSpace& space, MeasuredPoints& measured, SearchFinding& finding);

}  // namespace rdmabench
