// Which completion vector each CQ of a side takes: spread over the device's vectors (before,
// every CQ took vector 0, so with threads every interrupt landed on one core).
#include <gtest/gtest.h>

#include "datapath/completion_group.h"

namespace rdmabench {
namespace {

TEST(CompletionVector, ThreadsSpreadOverTheDevicesVectors) {
  // A NIC with 4 vectors and 6 threads: 0 1 2 3 0 1.
  const int expected[] = {0, 1, 2, 3, 0, 1};
  for (uint32_t cq = 0; cq < 6; ++cq) EXPECT_EQ(completion_vector(cq, 4), expected[cq]) << cq;
}

TEST(CompletionVector, OneVectorOrNoneReportedMeansVectorZero) {
  for (uint32_t cq = 0; cq < 4; ++cq) {
    EXPECT_EQ(completion_vector(cq, 1), 0);  // rxe has one
    EXPECT_EQ(completion_vector(cq, 0), 0);  // a device that reports none
  }
}

}  // namespace
}  // namespace rdmabench
