// Latency statistics over every sample, in floating point.
#pragma once

#include <cstdint>
#include <span>

namespace rdmabench {

struct LatencyStats {
  double min_us = 0, mean_us = 0, stddev_us = 0, p50_us = 0, p90_us = 0, p99_us = 0, p999_us = 0,
         max_us = 0;
  uint64_t samples = 0;
};

// Sorts `samples_ns` in place. `scale` converts a sample to the reported latency (0.5 for half
// a round trip). Percentiles interpolate linearly between closest ranks; stddev is the sample
// standard deviation (n-1). No sample is dropped.
LatencyStats compute_latency_stats(std::span<uint64_t> samples_ns, double scale);

}  // namespace rdmabench
