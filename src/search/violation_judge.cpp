// How a rule judges measured points (expectation_rules.h): a figure that moved the wrong way,
// or stepped, by more than the spread of the repetitions on either side.
#include <algorithm>
#include <cmath>
#include <limits>

#include "search/expectation_rules.h"
#include "search/window_resolution.h"

namespace rdmabench {

namespace {

struct Judged {
  const Point* point;
  Band band;
  double resolution = 0;  // a rate counted in a window: how far off its median may be, either way
};

// A rate counted in a timed window knows its value to a burst of what is in flight
// (window_resolution.h): that, at the figure's median (infinity: the window counted less than
// a burst, no rate). Any other figure: 0.
double resolution_of(const Rule& rule, const Point& point, const Observation& o, const Band& band) {
  if (!counted_rate(rule.counter)) return 0;
  const std::optional<double> r = window_resolution(o, most_in_flight(point));
  return r ? *r * band.median : 0;
}

std::vector<Judged> judged_line(const Rule& rule, const std::vector<MeasuredPoint>& line) {
  std::vector<Judged> out;
  for (const auto& [point, observation] : line) {
    if (!rule_applies(rule, point)) continue;
    const std::optional<Band> b = figure_band(rule, observation);
    if (!b) continue;
    const double resolution = resolution_of(rule, point, observation, *b);
    if (!std::isinf(resolution)) out.push_back({&point, *b, resolution});
  }
  return out;
}

Violation violation_of(const Rule& rule, const Judged& a, const Judged& b, double size) {
  return {&rule, *a.point, *b.point, a.band, b.band, size};
}

// a then b along the line: b fell below a (kNotFalling) or rose above it (kNotRising), by more
// than both bands and both windows' resolutions together, and than the threshold.
std::optional<Violation> judge_pair(const Rule& rule, const Judged& a, const Judged& b,
                                    Threshold threshold) {
  const bool falls = rule.expects == Expectation::kNotFalling;
  const double gap = falls ? a.band.median - b.band.median : b.band.median - a.band.median;
  const double reference = std::max(std::abs(a.band.median), 1e-300);
  const double resolutions = a.resolution + b.resolution;
  const bool apart =
      falls ? a.band.low - b.band.high > resolutions : b.band.low - a.band.high > resolutions;
  if (!apart || gap <= a.band.spread() + b.band.spread() + resolutions ||
      gap <= threshold.relative() * reference)
    return std::nullopt;
  return violation_of(rule, a, b, gap / reference);
}

// The step from i to i+1 in log terms, and the width of a point's band in log terms.
double log_step(const std::vector<Judged>& v, size_t i) {
  return std::log(v[i + 1].band.median / v[i].band.median);
}
double log_width(const Judged& j) {
  const double low = j.band.low - j.resolution;
  return low > 0 ? std::log((j.band.high + j.resolution) / low)
                 : std::numeric_limits<double>::infinity();
}

// kSmooth: the step i -> i+1 is larger than both steps beside it in the same direction (a
// step back the other way, as after a spike, counts as none) by more than the four points'
// bands together, kNoiseMultiple times the pooled noise and the smallest effect (all in log
// terms). A curve that bends (its steps
// growing or shrinking along the line) has no such step; a step at either end of the line
// has one neighbour only and is not judged.
std::optional<Violation> judge_step(const Rule& rule, const std::vector<Judged>& v, size_t i,
                                    Threshold threshold) {
  if (i == 0 || i + 2 >= v.size()) return std::nullopt;
  const double step = log_step(v, i);
  const auto same_way = [&](size_t j) { return step > 0 ? log_step(v, j) : -log_step(v, j); };
  const double beside = std::max({0.0, same_way(i - 1), same_way(i + 1)});
  double widths = 0;
  for (size_t k = i - 1; k <= i + 2; ++k) widths += log_width(v[k]);
  const double excess = std::abs(step) - beside;
  const double least = std::max(kNoiseMultiple * threshold.noise, std::log1p(threshold.min_effect));
  if (excess <= widths || excess <= least) return std::nullopt;
  return violation_of(rule, v[i], v[i + 1], std::exp(excess) - 1);
}

// kCostBuysLower: x costs more than y (apart, by more than both bands, the pooled noise and the
// smallest effect) and its figure is not lower than y's beyond both bands.
bool dominated(const Judged& x, const Band& x_cost, const Judged& y, const Band& y_cost,
               Threshold threshold) {
  const double extra = x_cost.median - y_cost.median;
  const bool costs_more = x_cost.low > y_cost.high && extra > x_cost.spread() + y_cost.spread() &&
                          extra > threshold.relative() * std::max(y_cost.median, 1e-300);
  return costs_more && !(x.band.high < y.band.low);
}

std::vector<Violation> judge_costs(const Rule& rule, const std::vector<MeasuredPoint>& line,
                                   Threshold threshold) {
  std::vector<Judged> v;
  std::vector<Band> costs;
  for (const auto& [point, observation] : line) {
    if (!rule_applies(rule, point)) continue;
    const auto figure = figure_band(rule, observation);
    const auto cost = observation.ok() ? observation.band(std::string(rule.cost)) : std::nullopt;
    if (!figure || !cost) continue;
    v.push_back({&point, *figure});
    costs.push_back(*cost);
  }
  std::vector<Violation> out;
  for (size_t i = 0; i < v.size(); ++i)
    for (size_t j = i + 1; j < v.size(); ++j) {
      const bool j_off = dominated(v[j], costs[j], v[i], costs[i], threshold);
      const bool i_off = dominated(v[i], costs[i], v[j], costs[j], threshold);
      if (!j_off && !i_off) continue;
      const Band& more = j_off ? costs[j] : costs[i];
      const Band& less = j_off ? costs[i] : costs[j];
      out.push_back(violation_of(rule, v[i], v[j], (more.median - less.median) / less.median));
    }
  return out;
}

bool positive(const std::vector<Judged>& v) {
  return std::all_of(v.begin(), v.end(), [](const Judged& j) { return j.band.low > 0; });
}

}  // namespace

double Threshold::relative() const noexcept {
  return std::max(kNoiseMultiple * noise, min_effect);
}

std::vector<Violation> judge_line(const Rule& rule, const std::vector<MeasuredPoint>& line,
                                  Threshold threshold) {
  std::vector<Violation> out;
  if (rule.expects == Expectation::kZero) return out;
  if (rule.expects == Expectation::kCostBuysLower) return judge_costs(rule, line, threshold);
  const std::vector<Judged> v = judged_line(rule, line);
  if (rule.expects == Expectation::kSmooth && !positive(v)) return out;
  for (size_t i = 0; i + 1 < v.size(); ++i) {
    const std::optional<Violation> found = rule.expects == Expectation::kSmooth
                                               ? judge_step(rule, v, i, threshold)
                                               : judge_pair(rule, v[i], v[i + 1], threshold);
    if (found) out.push_back(*found);
  }
  return out;
}

std::optional<Violation> judge_point(const Rule& rule, const MeasuredPoint& point) {
  if (rule.expects != Expectation::kZero || !rule_applies(rule, point.first)) return std::nullopt;
  const std::optional<Band> b = figure_band(rule, point.second);
  if (!b || b->low <= 0) return std::nullopt;  // some repetition saw none: not beyond noise
  return Violation{&rule, point.first, point.first, *b, *b, b->median};
}

}  // namespace rdmabench
