// Google Benchmark's min_time batches over runs of many messages per iteration (batch_scale.h):
// a batch of n is handed back as the time of n messages, so a run makes about n messages,
// whatever its QPs, threads and round trips make of one per-QP iteration.
#include "runner/batch_scale.h"

#include <gtest/gtest.h>

namespace rdmabench {
namespace {

TEST(BatchScale, UntilARunIsCountedABatchIsItsOwnPerQpCount) {
  const BatchScale scale;
  EXPECT_EQ(scale.iterations_for(1), 1u);
  EXPECT_EQ(scale.iterations_for(70), 70u);
}

TEST(BatchScale, ABatchBecomesThePerQpCountThatMakesAtLeastItsMessages) {
  // 256 connections, two messages a round trip: a per-QP iteration is 512 messages.
  BatchScale scale;
  scale.counted(2, 1024);
  EXPECT_EQ(scale.iterations_for(10), 1u);  // at least one
  EXPECT_EQ(scale.iterations_for(5120), 10u);
  EXPECT_EQ(scale.iterations_for(5121), 11u);  // never fewer messages than the batch
  // One QP, one message an iteration (bw): the batch as it is.
  BatchScale one;
  one.counted(1000, 1000);
  EXPECT_EQ(one.iterations_for(123456), 123456u);
}

TEST(BatchScale, ARunThatCountedNothingTeachesNothing) {
  BatchScale scale;
  scale.counted(4, 0);
  EXPECT_EQ(scale.iterations_for(40), 40u);
  scale.counted(0, 100);
  EXPECT_EQ(scale.iterations_for(40), 40u);
  scale.counted(4, 8);  // learned: 2 a per-QP iteration
  scale.counted(4, 0);  // and kept
  EXPECT_EQ(scale.iterations_for(40), 20u);
}

}  // namespace
}  // namespace rdmabench
