#include "search/confirmation.h"

#include "search/line_walk.h"

namespace rdmabench {

namespace {

// The points the rule judges `low`, `high` on, in the line's order.
std::vector<Point> judged_points(const SearchSpace& space, const Rule& rule, const Point& low,
                                 const Point& high) {
  const Dimension* d = rule.along.empty() ? nullptr : space.find(std::string(rule.along));
  if (d == nullptr) return {low};
  std::vector<Point> points;
  for (const std::string& v : judged_values(space, *d, rule, low, high))
    points.push_back(with(low, d->option, v));
  return points;
}

}  // namespace

size_t points_judged(const SearchSpace& space, const Violation& v) {
  return judged_points(space, *v.rule, v.low, v.high).size();
}

Judgement judge_again(const SearchSpace& space, MeasuredPoints& measured, const Rule& rule,
                      const Point& low, const Point& high) {
  std::vector<Point> points = judged_points(space, rule, low, high);
  std::vector<Observation> observations = measured.again(points);
  Judgement j;
  for (size_t i = 0; i < points.size(); ++i)
    j.again.emplace_back(std::move(points[i]), std::move(observations[i]));
  if (rule.expects == Expectation::kZero) {
    j.holds = judge_point(rule, j.again.front());
    return j;
  }
  for (const Violation& v : judge_line(rule, j.again, measured.threshold(rule)))
    if (v.low == low && v.high == high) j.holds = v;
  return j;
}

void confirm(const SearchSpace& space, MeasuredPoints& measured, SearchFinding& f) {
  if (!measured.within_budget()) return;
  const Judgement j = judge_again(space, measured, *f.shown.rule, f.shown.low, f.shown.high);
  f.measured_again = true;
  f.confirmed = j.holds.has_value();
  for (const auto& [point, observation] : j.again) {
    if (point == f.shown.low) f.again_low = observation;
    if (point == f.shown.high) f.again_high = observation;
  }
}

}  // namespace rdmabench
