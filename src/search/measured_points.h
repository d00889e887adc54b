// Every point the search has measured, each once: the one way the search asks the target for
// a figure, and what its state file holds (search_state.h). The budget is counted here.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "search/expectation_rules.h"
#include "search/observation.h"
#include "search/search_space.h"
#include "search/search_target.h"

namespace rdmabench {

class MeasuredPoints {
 public:
  MeasuredPoints(SearchTarget& target, unsigned repetitions, double budget_seconds,
                 double min_effect = kDefaultMinEffect)
      : target_(target),
        repetitions_(repetitions),
        budget_seconds_(budget_seconds),
        min_effect_(min_effect) {}

  // The point's observation: measured now, unless it was before.
  const Observation& at(const Point& point);
  // Fresh measurements of points measured before (a candidate's confirmation), kept apart:
  // one repetition of each in turn, `repetitions` rounds (A B A B ...). A point that fails
  // keeps its error and is not run again.
  std::vector<Observation> again(const std::vector<Point>& points);
  bool has(const Point& point) const { return points_.count(point_key(point)) != 0; }
  // Whether the target takes the point, asked of it once a point (a refused starting point's
  // repair asks of hundreds, and rdmabench serve's target parses run's options for each).
  bool accepts(const Point& point) const;
  // Whether the budget has room for another measurement: time, and points while a limit holds.
  bool within_budget() const {
    return spent() < budget_seconds_ && (point_limit_ == 0 || points_.size() < point_limit_);
  }
  // At most this many points held (those a resumed search restored count): 0 for no limit.
  // The search holds its searching to it (search --points), not its shrinking.
  void set_point_limit(size_t points) noexcept { point_limit_ = points; }
  size_t point_limit() const noexcept { return point_limit_; }
  // The search's phases share the budget: each may stop at a part of it.
  void set_budget(double seconds) noexcept { budget_seconds_ = seconds; }
  double budget() const noexcept { return budget_seconds_; }
  double spent() const { return spent_before_ + target_.seconds_spent(); }
  size_t measurements() const noexcept { return measurements_; }
  unsigned repetitions() const noexcept { return repetitions_; }
  const std::map<std::string, std::pair<Point, Observation>>& all() const { return points_; }
  // The search's own noise for the rule's figure: the median, over every point measured, of
  // its repetitions' spread relative to their median (0 until kNoisePoints have it).
  double noise(const Rule& rule) const;
  // What a violation of the rule must exceed: that noise, and the smallest effect asked for.
  Threshold threshold(const Rule& rule) const { return {noise(rule), min_effect_}; }
  double min_effect() const noexcept { return min_effect_; }

  // Resuming: what an earlier search measured (and the seconds it spent), taken as measured.
  void restore(const Point& point, Observation observation);
  void add_spent(double seconds) { spent_before_ += seconds; }
  // Called after each new measurement (the progress line, the state file).
  void on_measured(std::function<void(const Point&, const Observation&)> fn) {
    on_measured_ = std::move(fn);
  }

 private:
  SearchTarget& target_;
  unsigned repetitions_;
  double budget_seconds_;
  size_t point_limit_ = 0;
  double min_effect_;
  double spent_before_ = 0;
  size_t measurements_ = 0;
  std::map<std::string, std::pair<Point, Observation>> points_;
  std::function<void(const Point&, const Observation&)> on_measured_;
  mutable std::map<std::string_view, std::pair<size_t, double>> noise_;  // rule -> (points, noise)
  mutable std::map<std::string, bool> accepted_;                         // point key -> accepts
};

inline constexpr size_t kNoisePoints = 5;

}  // namespace rdmabench
