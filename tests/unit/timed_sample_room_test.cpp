#include "measure/timed_sample_room.h"

#include <gtest/gtest.h>

using namespace rdmabench;

TEST(TimedSampleRoom, TwiceTheWindowOverTheFastestWarmUpRoundTrip) {
  EXPECT_EQ(timed_sample_room(2'000'000'000, 5'000), 800'000u + 1024);
  EXPECT_EQ(timed_sample_room(1'000'000, 1), 2'000'000u + 1024);
  EXPECT_EQ(timed_sample_room(86'400'000'000'000, 1'000), kMaxTimedSamples);
}

// A warm-up that met a stall: in the lo guest all 16 warm-up round trips took over 4 ms
// (room for 1876), and the 2 s window then held more than that of 75 us round trips, so the
// run failed with "the window holds more than 1876 round trips".
TEST(TimedSampleRoom, AStalledWarmUpStillLeavesRoomForFastRoundTrips) {
  const uint64_t window = 2'000'000'000, stalled = 4'800'000, real_round_trip = 75'000;
  EXPECT_GE(timed_sample_room(window, stalled), window / real_round_trip);
  EXPECT_EQ(timed_sample_room(window, stalled), timed_sample_room(window, 10'000));
  // No warm-up sample at all sizes for 10 us round trips too.
  EXPECT_EQ(timed_sample_room(window, UINT64_MAX), 400'000u + 1024);
}
