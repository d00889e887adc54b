// The strategies' decisions apart from a device: adaptive's spin budget from the waits it has
// seen, and moderated's refusal from a (fake) device's moderation caps.
#include <gtest/gtest.h>

#include "cq/adaptive_poller.h"
#include "cq/moderated_poller.h"
#include "cq/strategy.h"

using namespace rdmabench;

TEST(AdaptiveRule, SpinsTwiceTheAverageWaitPlusTheFloorFromTheFirstWait) {
  AdaptiveBudget rule;
  EXPECT_EQ(rule.budget_ns(), AdaptiveBudget::kFloorNs);  // nothing learned: the floor alone
  rule.learn(8'000);                                      // each wait weighs an eighth
  EXPECT_EQ(rule.average_ns(), 1'000u);
  EXPECT_EQ(rule.budget_ns(), 2 * uint64_t{1'000} + AdaptiveBudget::kFloorNs);
  rule.learn(8'000);  // 1000 - 125 + 1000
  EXPECT_EQ(rule.average_ns(), 1'875u);
  EXPECT_EQ(rule.budget_ns(), 2 * uint64_t{1'875} + AdaptiveBudget::kFloorNs);
}

TEST(AdaptiveRule, BlocksAtOnceOnceTheAverageWaitIsPastTheCutoffAndSpinsAgainWhenItFalls) {
  AdaptiveBudget rule;
  for (int i = 0; i < 64; ++i) rule.learn(200'000);  // waits of 200 us: a lightly loaded service
  EXPECT_GT(rule.average_ns(), AdaptiveBudget::kCutoffNs);
  EXPECT_EQ(rule.budget_ns(), 0u);
  int turns = 0;
  while (rule.budget_ns() == 0 && turns < 100) {  // short waits again: the average falls
    rule.learn(2'000);
    ++turns;
  }
  // 200 us to under 50 us at 7/8 a wait (plus the new waits' eighth): 11 waits.
  EXPECT_EQ(turns, 11);
  EXPECT_LE(rule.average_ns(), AdaptiveBudget::kCutoffNs);
  EXPECT_EQ(rule.budget_ns(), 2 * rule.average_ns() + AdaptiveBudget::kFloorNs);
}

TEST(AdaptiveRule, OneHugeWaitCountsAsEightCutoffsAtMost) {
  AdaptiveBudget rule;
  rule.learn(10'000'000'000);                               // 10 s: the idle gap before a burst
  EXPECT_EQ(rule.average_ns(), AdaptiveBudget::kCutoffNs);  // 8 x 50 us / 8
  EXPECT_EQ(rule.budget_ns(), 2 * AdaptiveBudget::kCutoffNs + AdaptiveBudget::kFloorNs);
  rule.learn(10'000'000'000);
  EXPECT_EQ(rule.budget_ns(), 0u);  // past the cutoff: block
}

namespace {
ibv_cq_moderation_caps caps(uint16_t count, uint16_t period) {
  ibv_cq_moderation_caps c{};
  c.max_cq_count = count;
  c.max_cq_period = period;
  return c;
}
}  // namespace

TEST(ModeratedRule, ADeviceWithoutModerationIsRefusedByName) {
  const CqStrategy strategy = parse_cq_strategy("moderated:16,10");
  const std::string why = ModeratedPoller::refusal(caps(0, 0), "rxe0", strategy);
  EXPECT_NE(why.find("device rxe0 has no CQ moderation"), std::string::npos) << why;
  EXPECT_NE(why.find("choose another strategy"), std::string::npos) << why;
}

TEST(ModeratedRule, AskedBeyondTheDevicesCapsIsRefusedWithThem) {
  const ibv_cq_moderation_caps mlx5 = caps(65535, 4095);  // a ConnectX's, as it reports them
  EXPECT_EQ(ModeratedPoller::refusal(mlx5, "mlx5_0", parse_cq_strategy("moderated:16,10")), "");
  EXPECT_EQ(ModeratedPoller::refusal(mlx5, "mlx5_0", parse_cq_strategy("moderated:65535,4095")),
            "");
  const std::string why =
      ModeratedPoller::refusal(mlx5, "mlx5_0", parse_cq_strategy("moderated:16,4096"));
  EXPECT_NE(why.find("moderates at most 65535 completions, 4095 us"), std::string::npos) << why;
  EXPECT_NE(ModeratedPoller::refusal(caps(8, 100), "x", parse_cq_strategy("moderated:9,10")), "");
  EXPECT_EQ(ModeratedPoller::refusal(caps(8, 100), "x", parse_cq_strategy("moderated:8,100")), "");
}
