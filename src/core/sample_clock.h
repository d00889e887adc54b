// The clock latency samples are read with. CLOCK_MONOTONIC costs a system call's worth where
// the kernel cannot read it in user space (a guest on an emulated HPET: about 1.75 us a read),
// and every round trip reads it twice; the TSC costs a few nanoseconds. So where the TSC is
// invariant (CPUID says so; or when asked for with --clock tsc), samples read it, scaled to
// nanoseconds on CLOCK_MONOTONIC's timeline by a calibration against it, and checked against
// it after every run. Elsewhere, and on other architectures, samples read CLOCK_MONOTONIC and
// the description says why.
#pragma once

#include <cstdint>
#include <string>

#include "core/clock.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace rdmabench {

enum class ClockChoice { kAuto, kTsc, kMonotonic };

// Does CPUID say the TSC runs at a constant rate in every power state (leaf 0x80000007, EDX
// bit 8)? False off x86.
bool tsc_is_invariant();

class SampleClock {
 public:
  // CLOCK_MONOTONIC, as asked for or because `why`.
  static SampleClock monotonic(const std::string& why = "asked for (--clock monotonic)");
  // What `choice` gives here: the TSC (auto: only when invariant), calibrated over
  // `calibration_ns` of CLOCK_MONOTONIC; or CLOCK_MONOTONIC, saying why.
  static SampleClock choose(ClockChoice choice, uint64_t calibration_ns = 50'000'000);

  // Hot path: nanoseconds on CLOCK_MONOTONIC's timeline.
  uint64_t now_ns() const noexcept {
#if defined(__x86_64__)
    if (tsc_)
      return base_ns_ +
             static_cast<uint64_t>(static_cast<double>(__rdtsc() - base_tsc_) * ns_per_tick_);
#endif
    return rdmabench::now_ns();
  }

  bool uses_tsc() const noexcept {
    return tsc_;
  }
  const char* name() const noexcept {
    return tsc_ ? "tsc" : "monotonic";
  }
  // For the results' context: the source, and its rate or why it is not the TSC.
  const std::string& description() const noexcept {
    return description_;
  }
  // How far the TSC's time since calibration is from CLOCK_MONOTONIC's, as a fraction of it
  // (0 for CLOCK_MONOTONIC itself).
  double drift() const;
  // Error(kRuntime) when the drift exceeds kMaxDrift: the samples cannot be trusted.
  void check() const;
  static constexpr double kMaxDrift = 0.001;

 private:
  SampleClock() = default;
  bool tsc_ = false;
  uint64_t base_tsc_ = 0;
  uint64_t base_ns_ = 0;
  double ns_per_tick_ = 0;
  std::string description_;
};

// The CLOCK_MONOTONIC sample clock, for code with none chosen (the server, the tests).
const SampleClock& monotonic_sample_clock();

}  // namespace rdmabench
