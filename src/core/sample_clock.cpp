#include "core/sample_clock.h"

#include <cmath>
#include <cstdio>

#include "core/error.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace rdmabench {

bool tsc_is_invariant() {
#if defined(__x86_64__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) == 0 || eax < 0x80000007u) return false;
  if (__get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx) == 0) return false;
  return (edx & (1u << 8)) != 0;
#else
  return false;
#endif
}

namespace {

#if defined(__x86_64__)
// A TSC reading and the CLOCK_MONOTONIC time it was taken at: the read bracketed by two
// CLOCK_MONOTONIC reads, the tightest of several tries (a preemption inside one, or a slow
// clock read, would otherwise move the pair by as much), the time the middle of its bracket.
struct ClockPair {
  uint64_t tsc = 0;
  uint64_t ns = 0;
};
ClockPair read_pair() {
  ClockPair best;
  uint64_t best_span = UINT64_MAX;
  for (int i = 0; i < 16; ++i) {
    const uint64_t before = rdmabench::now_ns();
    const uint64_t tsc = __rdtsc();
    const uint64_t after = rdmabench::now_ns();
    if (after - before < best_span) {
      best_span = after - before;
      best = {tsc, before + (after - before) / 2};
    }
  }
  return best;
}
#endif

}  // namespace

SampleClock SampleClock::monotonic(const std::string& why) {
  SampleClock c;
  c.description_ = "CLOCK_MONOTONIC: " + why;
  return c;
}

SampleClock SampleClock::choose(ClockChoice choice, uint64_t calibration_ns) {
  if (choice == ClockChoice::kMonotonic) return monotonic();
#if defined(__x86_64__)
  const bool invariant = tsc_is_invariant();
  if (choice == ClockChoice::kAuto && !invariant)
    return monotonic(
        "the TSC is not invariant here (CPUID 0x80000007 EDX bit 8 clear); --clock tsc uses it "
        "anyway");
  SampleClock c;
  c.tsc_ = true;
  // Both clocks read together (read_pair) at each end of the calibration span.
  const ClockPair start = read_pair();
  while (rdmabench::now_ns() - start.ns < calibration_ns) {
  }
  const ClockPair end = read_pair();
  c.base_tsc_ = start.tsc;
  c.base_ns_ = start.ns;
  c.ns_per_tick_ =
      static_cast<double>(end.ns - start.ns) / static_cast<double>(end.tsc - start.tsc);
  char mhz[32];
  std::snprintf(mhz, sizeof mhz, "%.1f", 1e3 / c.ns_per_tick_);
  c.description_ =
      std::string("TSC at ") + mhz + " MHz, calibrated against CLOCK_MONOTONIC over " +
      std::to_string(calibration_ns / 1'000'000) + " ms and checked after every run (" +
      (invariant ? "invariant" : "NOT invariant by CPUID: asked for with --clock tsc") + ")";
  return c;
#else
  if (choice == ClockChoice::kTsc)
    throw Error(ExitCode::kUsage, "--clock tsc: this architecture has no TSC rdmabench can read");
  return monotonic("no TSC on this architecture");
#endif
}

double SampleClock::drift() const {
#if defined(__x86_64__)
  if (!tsc_) return 0;
  const ClockPair now = read_pair();
  const double on_tsc = static_cast<double>(now.tsc - base_tsc_) * ns_per_tick_;
  const double elapsed = static_cast<double>(now.ns - base_ns_);
  return elapsed > 0 ? (on_tsc - elapsed) / elapsed : 0;
#else
  return 0;
#endif
}

void SampleClock::check() const {
  const double d = drift();
  if (std::fabs(d) <= kMaxDrift) return;
  char pct[32];
  std::snprintf(pct, sizeof pct, "%+.3f", d * 100);
  throw Error(ExitCode::kRuntime, std::string("the TSC drifted ") + pct +
                                      " % from CLOCK_MONOTONIC since its calibration: its "
                                      "samples cannot be trusted; use --clock monotonic");
}

const SampleClock& monotonic_sample_clock() {
  static const SampleClock clock = SampleClock::monotonic("no sample clock was chosen");
  return clock;
}

}  // namespace rdmabench
