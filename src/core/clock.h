// The benchmark clock: CLOCK_MONOTONIC through std::chrono::steady_clock, checked once.
#pragma once

#include <chrono>
#include <cstdint>

namespace rdmabench {

using BenchClock = std::chrono::steady_clock;
static_assert(BenchClock::is_steady, "the benchmark clock must be monotonic");

inline uint64_t now_ns() noexcept {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(BenchClock::now().time_since_epoch())
          .count());
}

struct ClockCheck {
  int64_t resolution_ns = 0;  // clock_getres(CLOCK_MONOTONIC)
  bool monotonic = true;      // no backwards step seen over the sample
};

// Reads the clock many times; throws Error(kInternal) when it steps backwards or its
// resolution is coarser than a microsecond (no latency number would be trustworthy).
ClockCheck verify_clock();

}  // namespace rdmabench
