#include "datapath/send_queue_credits.h"

#include <gtest/gtest.h>

using namespace rdmabench;

TEST(SendQueueCredits, FullAtDepthUntilACompletionIsReaped) {
  SendQueueCredits c(2, 10);  // --tx-depth 2; sends 1..10 of earlier runs all reaped
  EXPECT_FALSE(c.full());
  c.posted(11);
  EXPECT_FALSE(c.full());
  c.posted(12);
  EXPECT_TRUE(c.full());  // a third post could find no free slot on a hardware NIC
  c.reaped(11);
  EXPECT_FALSE(c.full());
  EXPECT_EQ(c.outstanding(), 1u);
}

TEST(SendQueueCredits, ASignalledCompletionCoversEveryEarlierSend) {
  SendQueueCredits c(128, 0);
  for (uint64_t id = 1; id <= 128; ++id) c.posted(id);
  EXPECT_TRUE(c.full());
  c.reaped(112);  // signalled every 16th: the completion of 112 frees 1..112
  EXPECT_EQ(c.outstanding(), 16u);
  c.reaped(96);  // an older completion never takes credit back
  EXPECT_EQ(c.outstanding(), 16u);
}
