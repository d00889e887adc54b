// time_round_trips' timed window without a device, on a clock the test moves: every round trip
// that starts and ends inside the window is kept, none other, and round trips back to back
// fill it. (In the guests this was a bound on the emulated machine's speed: issue 49.)
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "datapath/transfer_loops.h"
#include "spec_fixture.h"

using namespace rdmabench;

namespace {

// A clock that reads what the test set: each round trip moves it by its own length.
struct SteppedClock {
  uint64_t now = 1'000'000;
  uint64_t now_ns() const noexcept { return now; }
};

struct WindowRun {
  ClientMeasurement m;
  std::vector<uint64_t> samples = std::vector<uint64_t>(100'000);
  uint64_t trips = 0;
};

// Round trips of `trip_ns` each, back to back, over a window of `window_ns` with margins of
// `margin_ns`.
WindowRun run_window(uint64_t trip_ns, uint64_t window_ns, uint64_t margin_ns) {
  SteppedClock clock;
  const TestSpec spec = a_spec("send", Mode::kLatency, 2, 1, 1);
  const RunLength length{.iterations = 0, .duration_ns = window_ns, .margin_ns = margin_ns};
  WindowRun run;
  time_round_trips(clock, spec, length, std::span<uint64_t>(run.samples), run.m, [&](uint64_t) {
    clock.now += trip_ns;
    ++run.trips;
  });
  return run;
}

}  // namespace

TEST(RoundTripWindow, EveryRoundTripInsideTheWindowIsKeptAndNoneOutside) {
  // 1 ms window, 0.25 ms margins, 7 us round trips back to back: the window holds
  // floor(1 ms / 7 us) = 142 whole ones (the first begins at the first trip start past the
  // margin; the clock starts at a multiple of neither).
  const WindowRun run = run_window(7'000, 1'000'000, 250'000);
  const uint64_t kept = run.m.round_trips;
  EXPECT_GE(kept, 1'000'000u / 7'000 - 1);
  EXPECT_LE(kept, 1'000'000u / 7'000);
  // The loop went on through the second margin: more trips than it kept.
  EXPECT_EQ(run.m.all_round_trips, run.trips);
  EXPECT_GE(run.trips, 1'500'000u / 7'000);
  // Each kept sample is one round trip, and together they fill the window but for less than
  // two trips at its edges.
  for (uint64_t i = 0; i < kept; ++i) EXPECT_EQ(run.samples[i], 7'000u) << i;
  const uint64_t sum = std::accumulate(run.samples.begin(), run.samples.begin() + kept, 0ull);
  EXPECT_DOUBLE_EQ(run.m.seconds, static_cast<double>(sum) * 1e-9);
  EXPECT_LE(sum, 1'000'000u);
  EXPECT_GT(sum, 1'000'000u - 2 * 7'000);
  EXPECT_DOUBLE_EQ(run.m.span_seconds, run.m.seconds);  // back to back: no gaps between
}

TEST(RoundTripWindow, ARoundTripLongerThanTheWindowIsNeverKept) {
  const WindowRun run = run_window(3'000'000, 1'000'000, 250'000);
  EXPECT_EQ(run.m.round_trips, 0u);
  EXPECT_GE(run.m.all_round_trips, 1u);
  EXPECT_EQ(run.m.seconds, 0.0);
}

namespace {
// A clock that moves 100 ns each time it is read, as a spinning loop's reads would see it.
struct TickingClock {
  mutable uint64_t now = 1'000'000;
  uint64_t now_ns() const noexcept { return now += 100; }
};
}  // namespace

// Paced (--rate) with a client that polls: each round trip starts when it is meant to, found by
// spinning on the clock (a sleep would wait on another clock, and its wakeup's lateness would
// count in every sample), and its sample is its own length.
TEST(RoundTripWindow, APollingClientsPacedRoundTripsStartOnTimeBySpinning) {
  TickingClock clock;
  TestSpec spec = a_spec("send", Mode::kLatency, 2, 1, 1);
  spec.rate = 100'000;  // one every 10 us
  const RunLength length{.iterations = 20, .duration_ns = 0, .margin_ns = 0};
  std::vector<uint64_t> samples(20), starts;
  ClientMeasurement m;
  time_round_trips(clock, spec, length, std::span<uint64_t>(samples), m, [&](uint64_t) {
    starts.push_back(clock.now);
    clock.now += 3'000;
  });
  ASSERT_EQ(m.round_trips, 20u);
  for (size_t i = 1; i < starts.size(); ++i) {
    EXPECT_GE(starts[i] - starts[0], 10'000 * i - 200) << i;
    EXPECT_LE(starts[i] - starts[0], 10'000 * i + 200) << i;
  }
  for (uint64_t s : samples) EXPECT_LE(s, 3'400u);
}
