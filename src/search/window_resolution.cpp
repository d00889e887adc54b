#include "search/window_resolution.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rdmabench {

namespace {

uint64_t option_number(const Point& point, const char* option) {
  const auto it = point.find(option);
  if (it == point.end()) return 1;
  return std::max<uint64_t>(1, ordered_value(it->second));
}

std::optional<double> counted(const Counters& run, const char* name) {
  const auto it = run.find(name);
  if (it == run.end()) return std::nullopt;
  return it->second;
}

}  // namespace

uint64_t most_in_flight(const Point& point) {
  const auto bidir = point.find("bidir");
  const uint64_t ways = bidir != point.end() && bidir->second == "on" ? 2 : 1;
  return option_number(point, "tx-depth") * option_number(point, "qps") * ways;
}

bool counted_rate(std::string_view counter) {
  return counter == "bytes_per_second" || counter == "msgs_per_second";
}

std::optional<double> window_resolution(const Observation& observation, uint64_t in_flight) {
  std::optional<double> worst;
  for (const Counters& run : observation.runs) {
    const std::optional<double> msgs = counted(run, "msgs");
    if (!msgs) continue;
    const double r = *msgs >= static_cast<double>(in_flight)
                         ? static_cast<double>(in_flight) / *msgs
                         : std::numeric_limits<double>::infinity();
    worst = std::max(worst.value_or(0), r);
  }
  return worst;
}

void tally_window(WindowTally& tally, const Point& point, const Observation& observation) {
  if (!observation.ok()) return;
  const std::optional<double> r = window_resolution(observation, most_in_flight(point));
  if (!r) return;
  ++tally.counted;
  tally.coarse += *r > tally.min_effect;
  tally.no_rate += std::isinf(*r);
}

}  // namespace rdmabench
