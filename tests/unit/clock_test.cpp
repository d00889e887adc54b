#include "core/clock.h"

#include <gtest/gtest.h>

using namespace rdmabench;

TEST(Clock, MonotonicAndFineGrained) {
  const ClockCheck c = verify_clock();
  EXPECT_TRUE(c.monotonic);
  EXPECT_GT(c.resolution_ns, 0);
  EXPECT_LE(c.resolution_ns, 1000);
}
