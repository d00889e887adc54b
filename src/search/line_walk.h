// The search's moves: points that differ from another in one option, lines of them along a
// dimension, and what every rule says of a measured line.
#pragma once

#include <string>
#include <vector>

#include "search/expectation_rules.h"
#include "search/measured_points.h"
#include "search/search_space.h"

namespace rdmabench {

Point with(Point point, const std::string& option, const std::string& value);
// At most `most` of the dimension's values, spread evenly, the first and last among them.
std::vector<std::string> coarse_values(const Dimension& d, size_t most);
// The line through `anchor` along `d` at `values`: each point measured while the budget lasts
// (a line the budget cut short holds what was measured).
std::vector<MeasuredPoint> measure_line(MeasuredPoints& measured, const Point& anchor,
                                        const Dimension& d, const std::vector<std::string>& values);
// The values of `d` a rule judges the pair `low`, `high` on: the two and those between, and a
// step's (kSmooth) neighbours on either side; a cost rule's two alone.
std::vector<std::string> judged_values(const SearchSpace& space, const Dimension& d,
                                       const Rule& rule, const Point& low, const Point& high);
// Every violation the rules find on the line (those along `d`) and at its points (kZero).
std::vector<Violation> judge_measured_line(const std::vector<Rule>& rules, const Dimension& d,
                                           const std::vector<MeasuredPoint>& line,
                                           const MeasuredPoints& measured);
// The dimensions some rule compares along, in the space's order.
std::vector<const Dimension*> judged_dimensions(const SearchSpace& space,
                                                const std::vector<Rule>& rules);

}  // namespace rdmabench
