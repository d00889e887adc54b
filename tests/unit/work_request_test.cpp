// Work-request builders: each request owns its scatter entry wherever it is copied to, and each
// builder fills the part of the union its opcode reads.
#include "verbs/work_request.h"

#include <gtest/gtest.h>

#include <vector>

namespace rdmabench {
namespace {

const ibv_sge kLocal{0x1000, 64, 7};

TEST(WorkRequest, ACopyPointsAtItsOwnScatterEntry) {
  const SendWorkRequest original = SendWorkRequest::rdma(IBV_WR_RDMA_WRITE, kLocal, {0x2000, 9});
  SendWorkRequest copy = original;
  EXPECT_EQ(copy.native().sg_list, &copy.sge());
  EXPECT_NE(copy.native().sg_list, original.native().sg_list);
  EXPECT_EQ(copy.native().sg_list->addr, 0x1000u);
  SendWorkRequest assigned = SendWorkRequest::send(IBV_WR_SEND, {});
  assigned = copy;
  EXPECT_EQ(assigned.native().sg_list, &assigned.sge());
  EXPECT_EQ(assigned.native().sg_list->length, 64u);
}

TEST(WorkRequest, RequestsInAGrowingVectorKeepTheirOwnEntries) {
  std::vector<SendWorkRequest> sends;
  std::vector<ReceiveWorkRequest> receives;
  for (uint32_t i = 0; i < 100; ++i) {  // no reserve: the vectors move their elements
    sends.push_back(SendWorkRequest::send(IBV_WR_SEND, {0x1000 + i, 8, 1}));
    receives.emplace_back(i, ibv_sge{0x8000 + i, 8, 1});
  }
  for (uint32_t i = 0; i < 100; ++i) {
    EXPECT_EQ(sends[i].native().sg_list, &sends[i].sge());
    EXPECT_EQ(sends[i].native().sg_list->addr, 0x1000u + i);
    EXPECT_EQ(receives[i].native().sg_list->addr, 0x8000u + i);
    EXPECT_EQ(receives[i].native().wr_id, i);
  }
}

TEST(WorkRequest, AReceiveWithoutDataHasNoScatterEntry) {
  ReceiveWorkRequest r = ReceiveWorkRequest::without_data(5);
  // The copy is what is tested: NOLINTNEXTLINE(performance-unnecessary-copy-initialization)
  const ReceiveWorkRequest copy = r;
  EXPECT_EQ(copy.native().sg_list, nullptr);
  EXPECT_EQ(copy.native().num_sge, 0);
  EXPECT_EQ(copy.native().wr_id, 5u);
}

TEST(WorkRequest, RdmaFillsTheRdmaPart) {
  const auto r = SendWorkRequest::rdma(IBV_WR_RDMA_READ, kLocal, {0xabc0, 42});
  EXPECT_EQ(r.native().opcode, IBV_WR_RDMA_READ);
  EXPECT_EQ(r.native().wr.rdma.remote_addr, 0xabc0u);
  EXPECT_EQ(r.native().wr.rdma.rkey, 42u);
  EXPECT_EQ(r.native().num_sge, 1);
}

TEST(WorkRequest, AtomicsFillTheAtomicPart) {
  const auto add = SendWorkRequest::fetch_add({0x10, 8, 3}, {0x20, 4}, 1);
  EXPECT_EQ(add.native().opcode, IBV_WR_ATOMIC_FETCH_AND_ADD);
  EXPECT_EQ(add.native().wr.atomic.remote_addr, 0x20u);
  EXPECT_EQ(add.native().wr.atomic.rkey, 4u);
  EXPECT_EQ(add.native().wr.atomic.compare_add, 1u);
  const auto swap = SendWorkRequest::compare_swap({0x10, 8, 3}, {0x20, 4}, 7, 9);
  EXPECT_EQ(swap.native().opcode, IBV_WR_ATOMIC_CMP_AND_SWP);
  EXPECT_EQ(swap.native().wr.atomic.compare_add, 7u);
  EXPECT_EQ(swap.native().wr.atomic.swap, 9u);
}

TEST(WorkRequest, ADatagramNamesItsDestination) {
  auto* ah = reinterpret_cast<ibv_ah*>(0x1234);
  const auto r = SendWorkRequest::datagram(IBV_WR_SEND, kLocal, {ah, 77, 0x11111111});
  EXPECT_EQ(r.native().wr.ud.ah, ah);
  EXPECT_EQ(r.native().wr.ud.remote_qpn, 77u);
  EXPECT_EQ(r.native().wr.ud.remote_qkey, 0x11111111u);
}

}  // namespace
}  // namespace rdmabench
