// Which stream of a lane a completion on the lane's shared CQ is for (stream_of_completion.h):
// by its wr_id's stream over the run's lanes, or, for a shared receive queue's receive, by the
// QP it arrived on; anything no stream of the lane drives is an error, never another stream.
#include "datapath/stream_of_completion.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace rdmabench {
namespace {

ibv_wc completion(uint32_t stream, ibv_wc_opcode opcode, uint32_t qp_num = 0) {
  ibv_wc wc{};
  wc.wr_id = (uint64_t{stream} << kStreamShift) | 7;
  wc.opcode = opcode;
  wc.qp_num = qp_num;
  return wc;
}

TEST(StreamOfCompletion, TheWrIdsStreamOverTheRunsLanesIsTheLanesOwn) {
  // Lane 1 of 3 holds the run's streams 1, 4 and 7: lane-local 0, 1 and 2.
  const StreamOfCompletion of({900, 40, 12}, 3, false);
  EXPECT_EQ(of(completion(1, IBV_WC_SEND)), 0u);
  EXPECT_EQ(of(completion(4, IBV_WC_RECV)), 1u);
  EXPECT_EQ(of(completion(7, IBV_WC_RDMA_READ)), 2u);
}

TEST(StreamOfCompletion, ASharedReceiveQueuesReceiveIsTheStreamOfItsQp) {
  // The wr_id of an SRQ's receive names the ring's slot, not a stream: the QP number decides.
  const StreamOfCompletion of({900, 40, 12}, 3, true);
  EXPECT_EQ(of(completion(0, IBV_WC_RECV, 12)), 2u);
  EXPECT_EQ(of(completion(0, IBV_WC_RECV, 900)), 0u);
  EXPECT_EQ(of(completion(0, IBV_WC_RECV_RDMA_WITH_IMM, 40)), 1u);
  // A send's completion still names its stream.
  EXPECT_EQ(of(completion(4, IBV_WC_SEND, 12)), 1u);
}

TEST(StreamOfCompletion, WhatNoStreamOfTheLaneDrivesIsAnErrorNamingIt) {
  const StreamOfCompletion of({900, 40}, 2, true);
  try {
    of(completion(0, IBV_WC_RECV, 41));
    FAIL() << "an unknown QP was taken";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kRuntime);
    EXPECT_NE(std::string(e.what()).find("QP 41"), std::string::npos) << e.what();
  }
  try {
    of(completion(5, IBV_WC_SEND));  // lane-local 2 of two streams
    FAIL() << "a stream past the lane's was taken";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("stream 5"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace rdmabench
