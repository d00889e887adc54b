// How long the search lets one point take before it gives the point up: a bound the point's
// own steps cannot reach, and that a server or a fabric keeping a step going cannot extend
// (the deterministic guest's 15-minute search once sat 300 s on one point, twice).
#include <gtest/gtest.h>

#include <cmath>

#include "search/point_length.h"

using namespace rdmabench;
using std::chrono::milliseconds;

TEST(PointAllowance, TwiceEveryStepAtItsTimeoutAndEachTimedRun) {
  // 4 steps of 5 s, then 3 runs of 0.7 s (0.5 s and two 0.1 s margins) each with a 5 s step:
  // 37.1 s, twice.
  const RunLength window{1, 500'000'000, 100'000'000, 16};
  EXPECT_EQ(point_allowance(window, 3, milliseconds(5000)), milliseconds(74200));
  // One more repetition adds its run and its step, twice.
  EXPECT_EQ(point_allowance(window, 4, milliseconds(5000)) -
                point_allowance(window, 3, milliseconds(5000)),
            milliseconds(11400));
}

TEST(PointAllowance, ByIterationsARunIsTheMostItMovesOnASlowLink) {
  // 64 MiB at 1 Gb/s: 0.537 s a run.
  const RunLength iterations{1000, 0, 0, 16};
  EXPECT_EQ(point_allowance(iterations, 1, milliseconds(1000)),
            milliseconds(static_cast<int64_t>(std::ceil(2 * (4 + 0.536870912 + 1) * 1000))));
}
