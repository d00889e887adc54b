#include <random>

#include "search/line_walk.h"
#include "search/space_search.h"
#include "search/violation_set.h"

namespace rdmabench {

std::vector<Violation> random_search(const SearchSpace& space, const std::vector<Rule>& rules,
                                     MeasuredPoints& measured, uint32_t seed) {
  std::mt19937 random(seed);
  const auto pick = [&](size_t n) {
    return std::uniform_int_distribution<size_t>(0, n - 1)(random);
  };
  const std::vector<const Dimension*> dims = judged_dimensions(space, rules);
  ViolationSet found;
  for (int idle = 0; measured.within_budget() && !dims.empty() && idle < 200;) {
    const size_t before = measured.measurements();
    Point anchor;
    for (const Dimension& d : space.dimensions())
      anchor[d.option] = d.values[pick(d.values.size())];
    const Dimension& d = *dims[pick(dims.size())];
    // Four neighbouring values: the shortest line every rule can judge (a step needs one on
    // each side).
    const size_t first = pick(d.values.size() > 3 ? d.values.size() - 3 : 1);
    const size_t last = std::min(first + 3, d.values.size() - 1);
    const std::vector<std::string> values(d.values.begin() + first, d.values.begin() + last + 1);
    const auto line = measure_line(measured, anchor, d, values);
    for (const Violation& v : judge_measured_line(rules, d, line, measured)) found.add(v);
    idle = measured.measurements() == before ? idle + 1 : 0;  // nothing new: measured out
  }
  return found.list();
}

}  // namespace rdmabench
