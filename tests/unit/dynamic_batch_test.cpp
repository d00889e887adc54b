// The dynamic strategy's rule, perftest 26.04's dynamic CQE polling (cq/dynamic_poller.h), on
// made-up polls, and the batch each of the poller's calls asks for on a fake CQ.
#include <gtest/gtest.h>

#include <array>

#include "cq/dynamic_poller.h"
#include "fake_cq.h"

using namespace rdmabench;

TEST(DynamicBatch, StartsAtItsCeilingAndEmptyPollsHalveItDownToSixteen) {
  DynamicBatch rule(64, 1);
  EXPECT_EQ(rule.size(), 64u);
  rule.learn(0);
  EXPECT_EQ(rule.size(), 32u);
  rule.learn(0);
  EXPECT_EQ(rule.size(), 16u);
  rule.learn(0);
  EXPECT_EQ(rule.size(), 16u);
}

TEST(DynamicBatch, AShortPollMovesItHalfWayAndAFullOneLeavesItAsPerftestDoes) {
  DynamicBatch rule(64, 1);
  rule.learn(40);  // below 85 % of 64 (54.4): half way
  EXPECT_EQ(rule.size(), 52u);
  rule.learn(45);  // 45 is at least 85 % of 52 (44.2): kept
  EXPECT_EQ(rule.size(), 52u);
  rule.learn(52);  // full, below the ceiling: (52 + 52) / 2, perftest's growth that never grows
  EXPECT_EQ(rule.size(), 52u);
}

TEST(DynamicBatch, TenEqualPollsInARowEndTheAdapting) {
  DynamicBatch rule(32, 1);
  rule.learn(30);  // sets the last count: 30 is at least 85 % of 32
  for (int i = 0; i < 9; ++i) rule.learn(30);
  EXPECT_TRUE(rule.adapting());
  rule.learn(30);
  EXPECT_FALSE(rule.adapting());
  rule.learn(0);  // no longer heard
  EXPECT_EQ(rule.size(), 32u);
}

TEST(DynamicBatch, ItAdaptsForTheFirstThousandCompletionsOrThreeAQp) {
  DynamicBatch few(32, 4);
  for (int i = 0; i < 34; ++i) few.learn(i % 2 == 0 ? 29 : 28);
  few.learn(28);
  EXPECT_TRUE(few.adapting());  // 997 taken
  few.learn(29);
  EXPECT_FALSE(few.adapting());  // 1026
  few.learn(0);
  EXPECT_EQ(few.size(), 32u);
  DynamicBatch many(32, 1024);  // 3 x 1024 = 3072
  for (int i = 0; i < 1100 / 29 + 1; ++i) many.learn(i % 2 == 0 ? 29 : 28);
  EXPECT_TRUE(many.adapting());
}

TEST(DynamicPoller, EachPollAsksForTheBatchTheRuleSet) {
  rdmabench::testing::FakeCq fake({0, 40, 0, 3});
  rdmabench::testing::FakeTarget run(fake, "dynamic");
  run.target.batch = 64;  // --poll-batch: where it starts
  DynamicPoller poller(run.target);
  std::array<ibv_wc, 64> out{};
  EXPECT_EQ(poller.wait(out), 32);  // an empty poll halved it first
  EXPECT_EQ(poller.wait(out), 3);
  EXPECT_EQ(fake.asked(), (std::vector<int>{64, 32, 32, 16}));
}
