#include "measure/latency_stats.h"

#include <gtest/gtest.h>

#include <vector>

using namespace rdmabench;

TEST(LatencyStats, ComputesFromEverySampleInFloatingPoint) {
  std::vector<uint64_t> ns = {5000, 1000, 3000, 2000, 4000};  // 1..5 us, unsorted
  const auto s = compute_latency_stats(ns, 1.0);
  EXPECT_EQ(s.samples, 5u);
  EXPECT_DOUBLE_EQ(s.min_us, 1.0);
  EXPECT_DOUBLE_EQ(s.max_us, 5.0);
  EXPECT_DOUBLE_EQ(s.mean_us, 3.0);
  EXPECT_DOUBLE_EQ(s.p50_us, 3.0);
  EXPECT_NEAR(s.stddev_us, 1.5811388, 1e-6);  // sample stddev, not perftest's integer one
  EXPECT_DOUBLE_EQ(s.p90_us, 4.6);            // linear interpolation between ranks
}

TEST(LatencyStats, HalfRoundTripScalesEverything) {
  std::vector<uint64_t> ns = {2000, 4000};
  const auto s = compute_latency_stats(ns, 0.5);
  EXPECT_DOUBLE_EQ(s.min_us, 1.0);
  EXPECT_DOUBLE_EQ(s.max_us, 2.0);
  EXPECT_DOUBLE_EQ(s.mean_us, 1.5);
}

TEST(LatencyStats, PercentilesAreOrderedAndTailIsKept) {
  std::vector<uint64_t> ns(1000, 1000);
  ns[999] = 1'000'000;  // one outlier must reach max and p99.9, not be dropped
  const auto s = compute_latency_stats(ns, 1.0);
  EXPECT_LE(s.min_us, s.p50_us);
  EXPECT_LE(s.p50_us, s.p90_us);
  EXPECT_LE(s.p90_us, s.p99_us);
  EXPECT_LE(s.p99_us, s.p999_us);
  EXPECT_LE(s.p999_us, s.max_us);
  EXPECT_DOUBLE_EQ(s.max_us, 1000.0);
  EXPECT_GT(s.p999_us, 1.0);
}

TEST(LatencyStats, EmptyAndSingle) {
  std::vector<uint64_t> none;
  EXPECT_EQ(compute_latency_stats(none, 1.0).samples, 0u);
  std::vector<uint64_t> one = {7000};
  const auto s = compute_latency_stats(one, 1.0);
  EXPECT_DOUBLE_EQ(s.p99_us, 7.0);
  EXPECT_DOUBLE_EQ(s.stddev_us, 0.0);
}
