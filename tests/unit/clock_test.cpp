#include "core/clock.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include "core/sample_clock.h"

using namespace rdmabench;

TEST(Clock, MonotonicAndFineGrained) {
  const ClockCheck c = verify_clock();
  EXPECT_TRUE(c.monotonic);
  EXPECT_GT(c.resolution_ns, 0);
  EXPECT_LE(c.resolution_ns, 1000);
}

namespace {
// Does /proc/cpuinfo list `flag` (Linux sets nonstop_tsc from CPUID's invariant-TSC bit)?
bool cpuinfo_has(const std::string& flag) {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("flags", 0) == 0)
      return (line + " ").find(" " + flag + " ") != std::string::npos;
  return false;
}
}  // namespace

TEST(SampleClock, InvariantTscIsWhatTheKernelSaw) {
#if defined(__x86_64__)
  EXPECT_EQ(tsc_is_invariant(), cpuinfo_has("nonstop_tsc"));
#else
  EXPECT_FALSE(tsc_is_invariant());
#endif
}

TEST(SampleClock, AutoTakesTheTscOnlyWhereItIsInvariant) {
  const SampleClock chosen = SampleClock::choose(ClockChoice::kAuto, 5'000'000);
  EXPECT_EQ(chosen.uses_tsc(), tsc_is_invariant());
  if (!chosen.uses_tsc()) {
    EXPECT_NE(chosen.description().find("not invariant"), std::string::npos)
        << chosen.description();
  }
  const SampleClock asked = SampleClock::choose(ClockChoice::kMonotonic);
  EXPECT_FALSE(asked.uses_tsc());
  EXPECT_STREQ(asked.name(), "monotonic");
  EXPECT_EQ(asked.drift(), 0.0);
  EXPECT_FALSE(monotonic_sample_clock().uses_tsc());
}

#if defined(__x86_64__)
TEST(SampleClock, TheTscKeepsToClockMonotonicsTimeline) {
  const SampleClock tsc = SampleClock::choose(ClockChoice::kTsc, 10'000'000);
  ASSERT_TRUE(tsc.uses_tsc());
  EXPECT_NE(tsc.description().find("MHz"), std::string::npos) << tsc.description();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  // On CLOCK_MONOTONIC's timeline: the same instant read from both, within the time the two
  // reads take and the calibration's error over 40 ms (far under a millisecond).
  const uint64_t a = now_ns(), t = tsc.now_ns(), b = now_ns();
  EXPECT_GE(t + 200'000, a);
  EXPECT_LE(t, b + 200'000);
  EXPECT_LT(std::abs(tsc.drift()), SampleClock::kMaxDrift);
  EXPECT_NO_THROW(tsc.check());
}
#endif
