#include <algorithm>

#include "search/finding.h"
#include "search/line_walk.h"

namespace rdmabench {

namespace {

// The base with `options`, at the compared dimension's value in `from`.
Point point_of(const SearchSpace& space, const std::map<std::string, std::string>& options,
               const std::string& along, const Point& from) {
  Point p = space.base();
  for (const auto& [option, value] : options) p[option] = value;
  if (!along.empty()) p[along] = from.at(along);
  return p;
}

// An option whose removal keeps the violation, or none.
bool drop_one(const SearchSpace& space, MeasuredPoints& measured, SearchFinding& f) {
  const Rule& rule = *f.shown.rule;
  const std::string along(rule.along);
  for (const auto& [option, value] : f.options) {
    auto trial = f.options;
    trial.erase(option);
    const Point low = point_of(space, trial, along, f.shown.low);
    const Point high = point_of(space, trial, along, f.shown.high);
    // (a trial of points measured before costs nothing, and is judged however little is left)
    if (!measured.within_budget() && !(measured.has(low) && measured.has(high))) {
      f.fully_shrunk = false;
      return false;
    }
    if (auto v = judge_at(space, measured, rule, low, high)) {
      f.options = std::move(trial);
      f.shown = *v;
      return true;
    }
  }
  return false;
}

}  // namespace

std::optional<Violation> judge_at(const SearchSpace& space, MeasuredPoints& measured,
                                  const Rule& rule, const Point& low, const Point& high) {
  if (rule.expects == Expectation::kZero) return judge_point(rule, {low, measured.at(low)});
  const Dimension& d = *space.find(std::string(rule.along));
  const auto line = measure_line(measured, low, d, judged_values(space, d, rule, low, high));
  for (const Violation& v : judge_line(rule, line, measured.threshold(rule)))
    if (v.low.at(d.option) == low.at(d.option) && v.high.at(d.option) == high.at(d.option))
      return v;
  return std::nullopt;
}

SearchFinding shrink(const SearchSpace& space, MeasuredPoints& measured,
                     const Violation& violation) {
  SearchFinding f;
  f.shown = violation;
  f.options = non_base(space, violation.low);
  f.options.erase(std::string(violation.rule->along));
  const size_t before = measured.measurements();
  while (drop_one(space, measured, f)) {
  }
  f.shrink_measurements = measured.measurements() - before;
  return f;
}

}  // namespace rdmabench
