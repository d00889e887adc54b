// The benchmark clock: CLOCK_MONOTONIC through std::chrono::steady_clock, checked once; and the
// wall clock's seconds since 1970, for a report's "when".
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

// CLOCK_MONOTONIC as an object, for code that takes its clock as a parameter (a test's clock
// counts the reads or moves as it is told).
struct MonotonicClock {
  uint64_t now_ns() const noexcept { return rdmabench::now_ns(); }
};

// Seconds since 1970 by the wall clock (a metrics file's timestamp), never for a duration.
inline double unix_seconds_now() noexcept {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

struct ClockCheck {
  int64_t resolution_ns = 0;  // clock_getres(CLOCK_MONOTONIC)
  bool monotonic = true;      // no backwards step seen over the sample
};

// Reads the clock a thousand times; throws Error(kInternal) when it steps backwards or its
// resolution is coarser than a microsecond (no latency number would be trustworthy).
ClockCheck verify_clock();

}  // namespace rdmabench
