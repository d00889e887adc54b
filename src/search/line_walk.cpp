#include "search/line_walk.h"

#include <algorithm>

namespace rdmabench {

Point with(Point point, const std::string& option, const std::string& value) {
  point[option] = value;
  return point;
}

std::vector<std::string> coarse_values(const Dimension& d, size_t most) {
  const size_t n = d.values.size();
  if (n <= most || most < 2) return d.values;
  std::vector<std::string> out;
  for (size_t k = 0; k < most; ++k) out.push_back(d.values[k * (n - 1) / (most - 1)]);
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<MeasuredPoint> measure_line(MeasuredPoints& measured, const Point& anchor,
                                        const Dimension& d,
                                        const std::vector<std::string>& values) {
  std::vector<MeasuredPoint> line;
  for (const std::string& v : values) {
    const Point p = with(anchor, d.option, v);
    if (!measured.has(p) && !measured.within_budget()) break;
    line.emplace_back(p, measured.at(p));
  }
  return line;
}

std::vector<std::string> judged_values(const SearchSpace& space, const Dimension& d,
                                       const Rule& rule, const Point& low, const Point& high) {
  if (rule.expects == Expectation::kCostBuysLower) return {low.at(d.option), high.at(d.option)};
  // (in their order along it, whichever a report called low)
  const size_t a = *space.index_of(d.option, low.at(d.option));
  const size_t b = *space.index_of(d.option, high.at(d.option));
  const size_t lo = std::min(a, b), hi = std::max(a, b);
  const bool step = rule.expects == Expectation::kSmooth;
  const size_t from = step && lo > 0 ? lo - 1 : lo;
  const size_t to = step ? std::min(hi + 1, d.values.size() - 1) : hi;
  return {d.values.begin() + from, d.values.begin() + to + 1};
}

std::vector<Violation> judge_measured_line(const std::vector<Rule>& rules, const Dimension& d,
                                           const std::vector<MeasuredPoint>& line,
                                           const MeasuredPoints& measured) {
  std::vector<Violation> out;
  for (const Rule& rule : rules) {
    if (rule.expects == Expectation::kZero) {
      for (const MeasuredPoint& p : line)
        if (auto v = judge_point(rule, p)) out.push_back(*v);
    } else if (rule.along == d.option) {
      for (Violation& v : judge_line(rule, line, measured.threshold(rule)))
        out.push_back(std::move(v));
    }
  }
  return out;
}

std::vector<const Dimension*> judged_dimensions(const SearchSpace& space,
                                                const std::vector<Rule>& rules) {
  std::vector<const Dimension*> out;
  for (const Dimension& d : space.dimensions()) {
    const bool judged =
        std::any_of(rules.begin(), rules.end(), [&](const Rule& r) { return r.along == d.option; });
    if (judged && d.values.size() > 1) out.push_back(&d);
  }
  return out;
}

}  // namespace rdmabench
