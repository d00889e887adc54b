#include "search/measured_points.h"

#include <algorithm>
#include <vector>

namespace rdmabench {

bool MeasuredPoints::accepts(const Point& point) const {
  const auto [it, added] = accepted_.try_emplace(point_key(point), false);
  if (added) it->second = target_.accepts(point);
  return it->second;
}

const Observation& MeasuredPoints::at(const Point& point) {
  const std::string key = point_key(point);
  if (const auto it = points_.find(key); it != points_.end()) return it->second.second;
  Observation o = target_.measure(point, repetitions_);
  ++measurements_;
  auto& slot = points_[key] = {point, std::move(o)};
  if (on_measured_) on_measured_(slot.first, slot.second);
  return slot.second;
}

std::vector<Observation> MeasuredPoints::again(const std::vector<Point>& points) {
  std::vector<Observation> out(points.size());
  for (unsigned round = 0; round < repetitions_; ++round)
    for (size_t i = 0; i < points.size(); ++i) {
      if (!out[i].error.empty()) continue;
      Observation one = target_.measure(points[i], 1);
      if (one.ok())
        out[i].runs.push_back(std::move(one.runs.front()));
      else
        out[i] = Observation{{}, one.error.empty() ? "no figures" : one.error, one.exit_code};
    }
  measurements_ += points.size();
  return out;
}

double MeasuredPoints::noise(const Rule& rule) const {
  auto& [counted, value] = noise_[rule.name];
  if (counted == points_.size()) return value;
  std::vector<double> spreads;
  for (const auto& [key, point] : points_)
    if (const auto b = figure_band(rule, point.second); b && b->median > 0)
      spreads.push_back(b->spread() / b->median);
  counted = points_.size();
  if (spreads.size() < kNoisePoints) return value = 0;
  std::nth_element(spreads.begin(), spreads.begin() + spreads.size() / 2, spreads.end());
  return value = spreads[spreads.size() / 2];
}

void MeasuredPoints::restore(const Point& point, Observation observation) {
  points_[point_key(point)] = {point, std::move(observation)};
}

}  // namespace rdmabench
