#include <algorithm>

#include "search/finding.h"
#include "search/line_walk.h"

namespace rdmabench {

namespace {

// The values of the rule's line the pair is judged on: the two, and a step's neighbours.
std::vector<std::string> pair_values(const Dimension& d, const Rule& rule, const SearchSpace& space,
                                     const Point& low, const Point& high) {
  const size_t lo = *space.index_of(d.option, low.at(d.option));
  const size_t hi = *space.index_of(d.option, high.at(d.option));
  const bool step = rule.expects == Expectation::kSmooth;
  const size_t from = step && lo > 0 ? lo - 1 : lo;
  const size_t to = step ? std::min(hi + 1, d.values.size() - 1) : hi;
  return {d.values.begin() + from, d.values.begin() + to + 1};
}

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
    if (!measured.within_budget()) {
      f.fully_shrunk = false;
      return false;
    }
    auto trial = f.options;
    trial.erase(option);
    const Point low = point_of(space, trial, along, f.shown.low);
    const Point high = point_of(space, trial, along, f.shown.high);
    if (auto v = judge_at(space, measured, rule, low, high)) {
      f.options = std::move(trial);
      f.shown = *v;
      return true;
    }
  }
  return false;
}

// Every measured point that differs from `point` only along `along`, in its order.
std::vector<MeasuredPoint> line_through(const MeasuredPoints& measured, const Point& point,
                                        const std::string& along) {
  std::vector<MeasuredPoint> line;
  for (const auto& [key, measured_point] : measured.all())
    if (with(measured_point.first, along, point.at(along)) == point) line.push_back(measured_point);
  std::sort(line.begin(), line.end(), [&](const MeasuredPoint& a, const MeasuredPoint& b) {
    return ordered_value(a.first.at(along)) < ordered_value(b.first.at(along));
  });
  return line;
}

}  // namespace

std::optional<Violation> judge_at(const SearchSpace& space, MeasuredPoints& measured,
                                  const Rule& rule, const Point& low, const Point& high) {
  if (rule.expects == Expectation::kZero) return judge_point(rule, {low, measured.at(low)});
  const Dimension& d = *space.find(std::string(rule.along));
  const auto line = measure_line(measured, low, d, pair_values(d, rule, space, low, high));
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

void replay(MeasuredPoints& measured, SearchFinding& f) {
  const Rule& rule = *f.shown.rule;
  f.replay_low = measured.again(f.shown.low);
  if (rule.expects == Expectation::kZero) {
    f.replayed = judge_point(rule, {f.shown.low, f.replay_low}).has_value();
    return;
  }
  f.replay_high = measured.again(f.shown.high);
  // A step is judged against its neighbours on the line (as measured before); a pair alone.
  std::vector<MeasuredPoint> line =
      rule.expects == Expectation::kSmooth
          ? line_through(measured, f.shown.low, std::string(rule.along))
          : std::vector<MeasuredPoint>{{f.shown.low, {}}, {f.shown.high, {}}};
  for (MeasuredPoint& p : line) {
    if (p.first == f.shown.low) p.second = f.replay_low;
    if (p.first == f.shown.high) p.second = f.replay_high;
  }
  const auto again = judge_line(rule, line, measured.threshold(rule));
  f.replayed = std::any_of(again.begin(), again.end(), [&](const Violation& v) {
    return v.low == f.shown.low && v.high == f.shown.high;
  });
}

}  // namespace rdmabench
