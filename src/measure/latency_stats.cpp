#include "measure/latency_stats.h"

#include <algorithm>
#include <cmath>

namespace rdmabench {

namespace {
double percentile(std::span<const uint64_t> sorted, double q) {
  if (sorted.size() == 1) return static_cast<double>(sorted[0]);
  const double rank = q * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(rank));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = rank - static_cast<double>(lo);
  return static_cast<double>(sorted[lo]) * (1 - frac) + static_cast<double>(sorted[hi]) * frac;
}
}  // namespace

LatencyStats compute_latency_stats(std::span<uint64_t> samples_ns, double scale) {
  LatencyStats s;
  s.samples = samples_ns.size();
  if (samples_ns.empty()) return s;
  std::sort(samples_ns.begin(), samples_ns.end());
  const double to_us = scale / 1000.0;
  double sum = 0;
  for (uint64_t v : samples_ns) sum += static_cast<double>(v);
  const double mean = sum / static_cast<double>(samples_ns.size());
  double sq = 0;
  for (uint64_t v : samples_ns)
    sq += (static_cast<double>(v) - mean) * (static_cast<double>(v) - mean);
  const double var = samples_ns.size() > 1 ? sq / static_cast<double>(samples_ns.size() - 1) : 0.0;
  s.min_us = static_cast<double>(samples_ns.front()) * to_us;
  s.max_us = static_cast<double>(samples_ns.back()) * to_us;
  s.mean_us = mean * to_us;
  s.stddev_us = std::sqrt(var) * to_us;
  s.p50_us = percentile(samples_ns, 0.50) * to_us;
  s.p90_us = percentile(samples_ns, 0.90) * to_us;
  s.p99_us = percentile(samples_ns, 0.99) * to_us;
  s.p999_us = percentile(samples_ns, 0.999) * to_us;
  return s;
}

}  // namespace rdmabench
