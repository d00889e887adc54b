// What the search expects of a healthy target: small registered rules, each with a name, a
// sentence, and the figure it judges. A rule judges a line of points that differ only along
// one dimension (its neighbours in order), or one point. A violation must lie beyond the
// points' own noise (the band their repetitions span, and a multiple of the search's pooled
// noise) and be at least the smallest effect the user cares about (--min-effect).
//
// Adding a rule: one line in expectation_rules.cpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "search/observation.h"
#include "search/search_space.h"

namespace rdmabench {

enum class Expectation {
  kNotFalling,  // along the dimension, the figure does not fall
  kNotRising,   // ... does not rise
  kSmooth,      // ... changes smoothly: no step larger than both steps beside it
  kZero,        // at every point, the figure is 0 (it judges points, not lines)
  // along the dimension, a point whose `cost` is higher than another's has a lower figure
  // (every pair compared: a point that costs more and buys nothing lies off the front)
  kCostBuysLower,
};

struct Rule {
  std::string_view name;  // "bandwidth-falls-with-size"
  std::string_view says;  // "bandwidth does not fall as the message size grows"
  Expectation expects;
  std::string_view counter;    // a row counter, or a ratio of two: "lat_p99_us/lat_p50_us"
  std::string_view along;      // the dimension a line runs along ("" for kZero)
  std::string_view only_if;    // "mode=bw": only points where the option has that value
  std::string_view cost = {};  // kCostBuysLower: what it costs ("client_cpu_us_per_msg")
};

// Every registered rule, in registration order.
const std::vector<Rule>& registered_rules();
const Rule* find_rule(std::string_view name);
bool rule_applies(const Rule& rule, const Point& point);
// The rule's figure in one observation: its band over the repetitions.
std::optional<Band> figure_band(const Rule& rule, const Observation& observation);

struct Violation {
  const Rule* rule = nullptr;
  Point low, high;  // the two points that show it (a kZero violation: the same point)
  Band at_low, at_high;
  double size = 0;  // how far beyond the noise, relative to the figure (0.5: by half)

  std::string key() const;  // the same for the same rule at the same two points
};

using MeasuredPoint = std::pair<Point, Observation>;

// How many times the pooled noise a difference must exceed: the median spread of three
// repetitions is about 1.7 standard deviations, so three of them are about five.
inline constexpr double kNoiseMultiple = 3;

// The smallest effect a violation may have (--min-effect): 2 % of the figure. In the
// deterministic guest three times the pooled noise is about 0.3 %, smaller than a run's
// start-up cost and than any difference a user asks about.
inline constexpr double kDefaultMinEffect = 0.02;

// What a difference must exceed besides the two points' bands, relative to the figure:
// kNoiseMultiple times the search's pooled noise for it, and the smallest effect asked for.
struct Threshold {
  double noise = 0;
  double min_effect = 0;
  double relative() const noexcept;
};

// The rule's violations along a line of points in the order of its dimension (points that
// failed to run or lack the figure are left out, and their neighbours compared past them).
std::vector<Violation> judge_line(const Rule& rule, const std::vector<MeasuredPoint>& line,
                                  Threshold threshold);
// A kZero rule at one point.
std::optional<Violation> judge_point(const Rule& rule, const MeasuredPoint& point);

}  // namespace rdmabench
