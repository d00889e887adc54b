// A violation made small: the fewest options (beyond the search's base) that still show it,
// each step re-measured, the two points that show it at the end, and whether it held when
// measured again (confirmation.h): only then is it a finding.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "search/expectation_rules.h"
#include "search/measured_points.h"
#include "search/search_space.h"

namespace rdmabench {

struct SearchFinding {
  Violation shown;                             // at the smallest points
  std::map<std::string, std::string> options;  // what it needs beyond the base (the compared
                                               // dimension's two values not among them)
  size_t shrink_measurements = 0;              // measurements the shrinking took
  bool fully_shrunk = true;                    // false: the budget ended first
  // Measured again before it is reported (confirmation.h).
  bool measured_again = false;  // false: the budget ended first
  bool confirmed = false;       // the rule broke again between the same two points
  Observation again_low, again_high;
};

// Delta debugging over the violation's options: each option it sets beyond the base is taken
// back in turn and kept back where the rule still breaks (re-measured), until no option can go.
SearchFinding shrink(const SearchSpace& space, MeasuredPoints& measured,
                     const Violation& violation);
// The rule judged at the two points (a step with its neighbours on the line), each measured
// unless it was: the violation between exactly those two, or none.
std::optional<Violation> judge_at(const SearchSpace& space, MeasuredPoints& measured,
                                  const Rule& rule, const Point& low, const Point& high);
// The violations, shrunk, narrowest first, each distinct finding once: a violation that a
// finding explains (the same rule inside its pair, with its options) is not shrunk again, and
// two that shrink to the same options and points are one. A violation is shrunk only while the
// budget keeps back enough to measure it and every candidate before it again (confirmation.h).
std::vector<SearchFinding> shrink_all(const SearchSpace& space, MeasuredPoints& measured,
                                      std::vector<Violation> violations);

}  // namespace rdmabench
