// The extended post path (verbs/extended_post.h) against the classic one: every request the
// patterns build (verbs/work_request.h), posted through a fake ibv_qp_ex, arrives as the same
// ibv_send_wr that ibv_post_send would have been given: operation, ids, flags, immediates,
// remote address and key, atomic operands, datagram destination and data.
#include "verbs/extended_post.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>

#include "fake_extended_qp.h"
#include "spec/pattern_info.h"
#include "verbs/work_request.h"

namespace rdmabench {
namespace {

using testing::FakeExtendedQp;

constexpr ibv_sge kPostedSge{0x5000, 64, 7};
constexpr RemoteMemory kRemote{0x9000, 11};

void expect_same(const ibv_send_wr& classic, const ibv_send_wr& extended, bool datagram) {
  EXPECT_EQ(extended.wr_id, classic.wr_id);
  EXPECT_EQ(extended.opcode, classic.opcode);
  EXPECT_EQ(extended.send_flags, classic.send_flags);
  EXPECT_EQ(extended.num_sge, classic.num_sge);
  if (classic.num_sge > 0) {
    ASSERT_NE(extended.sg_list, nullptr);
    EXPECT_EQ(extended.sg_list->addr, classic.sg_list->addr);
    EXPECT_EQ(extended.sg_list->length, classic.sg_list->length);
    if ((classic.send_flags & IBV_SEND_INLINE) == 0) {
      EXPECT_EQ(extended.sg_list->lkey, classic.sg_list->lkey);
    }
  }
  if (classic.opcode == IBV_WR_SEND_WITH_IMM || classic.opcode == IBV_WR_RDMA_WRITE_WITH_IMM) {
    EXPECT_EQ(extended.imm_data, classic.imm_data);
  }
  if (datagram) {
    EXPECT_EQ(extended.wr.ud.ah, classic.wr.ud.ah);
    EXPECT_EQ(extended.wr.ud.remote_qpn, classic.wr.ud.remote_qpn);
    EXPECT_EQ(extended.wr.ud.remote_qkey, classic.wr.ud.remote_qkey);
  } else if (is_atomic(classic.opcode)) {
    EXPECT_EQ(extended.wr.atomic.remote_addr, classic.wr.atomic.remote_addr);
    EXPECT_EQ(extended.wr.atomic.rkey, classic.wr.atomic.rkey);
    EXPECT_EQ(extended.wr.atomic.compare_add, classic.wr.atomic.compare_add);
    EXPECT_EQ(extended.wr.atomic.swap, classic.wr.atomic.swap);
  } else if (classic.opcode != IBV_WR_SEND && classic.opcode != IBV_WR_SEND_WITH_IMM) {
    EXPECT_EQ(extended.wr.rdma.remote_addr, classic.wr.rdma.remote_addr);
    EXPECT_EQ(extended.wr.rdma.rkey, classic.wr.rdma.rkey);
  }
}

// Posts `request` through the fake, alone as a chain and twice as a post list of its shape
// (post_extended_each), and checks each arrived unchanged.
void expect_posted_alike(SendWorkRequest request, bool datagram = false) {
  ibv_send_wr& wr = request.native();
  wr.wr_id = 42;
  wr.send_flags |= IBV_SEND_SIGNALED;
  FakeExtendedQp qp;
  ASSERT_EQ(post_extended(qp.native(), wr, datagram), 0);
  EXPECT_EQ(qp.starts, 1);
  EXPECT_EQ(qp.completes, 1);
  ASSERT_EQ(qp.posted.size(), 1u);
  expect_same(wr, qp.posted.front(), datagram);
  FakeExtendedQp list;
  ASSERT_EQ(post_extended_each(list.native(), 1, 2, wr, datagram,
                               [&](uint32_t) -> ibv_send_wr& { return wr; }),
            0);
  ASSERT_EQ(list.posted.size(), 2u);
  for (const ibv_send_wr& posted : list.posted) expect_same(wr, posted, datagram);
  for (bool inlined : list.posted_inline) EXPECT_EQ(inlined, qp.posted_inline.front());
}

TEST(ExtendedPost, EveryOperationArrivesAsTheClassicRequest) {
  expect_posted_alike(SendWorkRequest::send(IBV_WR_SEND, kPostedSge));
  SendWorkRequest imm = SendWorkRequest::send(IBV_WR_SEND_WITH_IMM, kPostedSge);
  imm.native().imm_data = htonl(77);
  expect_posted_alike(imm);
  expect_posted_alike(SendWorkRequest::rdma(IBV_WR_RDMA_WRITE, kPostedSge, kRemote));
  SendWorkRequest write_imm =
      SendWorkRequest::rdma(IBV_WR_RDMA_WRITE_WITH_IMM, kPostedSge, kRemote);
  write_imm.native().imm_data = htonl(78);
  expect_posted_alike(write_imm);
  expect_posted_alike(SendWorkRequest::rdma(IBV_WR_RDMA_READ, kPostedSge, kRemote));
  expect_posted_alike(SendWorkRequest::fetch_add(ibv_sge{0x5000, 8, 7}, kRemote, 3));
  expect_posted_alike(SendWorkRequest::compare_swap(ibv_sge{0x5000, 8, 7}, kRemote, 5, 6));
}

TEST(ExtendedPost, InlineRequestsOfEveryPayloadOperationArriveInline) {
  for (SendWorkRequest request :
       {SendWorkRequest::send(IBV_WR_SEND, kPostedSge),
        SendWorkRequest::send(IBV_WR_SEND_WITH_IMM, kPostedSge),
        SendWorkRequest::rdma(IBV_WR_RDMA_WRITE, kPostedSge, kRemote),
        SendWorkRequest::rdma(IBV_WR_RDMA_WRITE_WITH_IMM, kPostedSge, kRemote)}) {
    request.native().send_flags = IBV_SEND_INLINE;
    FakeExtendedQp qp;
    ibv_send_wr& wr = request.native();
    ASSERT_EQ(post_extended_each(qp.native(), 1, 2, wr, false,
                                 [&](uint32_t) -> ibv_send_wr& { return wr; }),
              0);
    ASSERT_EQ(qp.posted_inline.size(), 2u);
    EXPECT_TRUE(qp.posted_inline[0] && qp.posted_inline[1]) << wr.opcode;
  }
  const DatagramDestination to{reinterpret_cast<ibv_ah*>(0x1234), 0x99, 0x11111111};
  SendWorkRequest datagram = SendWorkRequest::datagram(IBV_WR_SEND, kPostedSge, to);
  datagram.native().send_flags = IBV_SEND_INLINE;
  expect_posted_alike(datagram, true);
}

TEST(ExtendedPost, ADatagramNamesItsDestination) {
  auto* ah = reinterpret_cast<ibv_ah*>(0x1234);
  const DatagramDestination to{ah, 0x99, 0x11111111};
  expect_posted_alike(SendWorkRequest::datagram(IBV_WR_SEND, kPostedSge, to), true);
  SendWorkRequest imm = SendWorkRequest::datagram(IBV_WR_SEND_WITH_IMM, kPostedSge, to);
  imm.native().imm_data = htonl(5);
  expect_posted_alike(imm, true);
}

TEST(ExtendedPost, InlineDataIsCopiedNotReferenced) {
  FakeExtendedQp qp;
  SendWorkRequest request = SendWorkRequest::send(IBV_WR_SEND, ibv_sge{0x5000, 2, 7});
  request.native().send_flags = IBV_SEND_INLINE | IBV_SEND_SIGNALED;
  ASSERT_EQ(post_extended(qp.native(), request.native(), false), 0);
  ASSERT_EQ(qp.posted.size(), 1u);
  EXPECT_TRUE(qp.posted_inline.front());
  expect_same(request.native(), qp.posted.front(), false);
}

TEST(ExtendedPost, APostListIsOnePostOfItsRequestsInOrder) {
  FakeExtendedQp qp;
  std::vector<SendWorkRequest> chain(3,
                                     SendWorkRequest::rdma(IBV_WR_RDMA_WRITE, kPostedSge, kRemote));
  for (size_t i = 0; i < chain.size(); ++i) {
    chain[i].native().wr_id = 10 + i;
    chain[i].native().next = i + 1 < chain.size() ? &chain[i + 1].native() : nullptr;
  }
  chain.back().native().send_flags = IBV_SEND_SIGNALED;
  ASSERT_EQ(post_extended(qp.native(), chain.front().native(), false), 0);
  EXPECT_EQ(qp.starts, 1);
  EXPECT_EQ(qp.completes, 1);
  ASSERT_EQ(qp.posted.size(), 3u);
  for (size_t i = 0; i < chain.size(); ++i) expect_same(chain[i].native(), qp.posted[i], false);
}

TEST(ExtendedPost, ARequestWithoutDataSetsAnEmptyList) {
  FakeExtendedQp qp;
  ibv_send_wr wr{};
  wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
  wr.num_sge = 0;
  ASSERT_EQ(post_extended(qp.native(), wr, false), 0);
  ASSERT_EQ(qp.posted.size(), 1u);
  EXPECT_EQ(qp.posted.front().num_sge, 0);
  EXPECT_EQ(qp.posted.front().sg_list, nullptr);
}

TEST(ExtendedPost, AnOperationWithoutAnExtendedCallPostsNothing) {
  FakeExtendedQp qp;
  ibv_send_wr wr{};
  wr.opcode = IBV_WR_LOCAL_INV;
  EXPECT_EQ(post_extended(qp.native(), wr, false), EINVAL);
  EXPECT_EQ(qp.aborts, 1);
  EXPECT_EQ(qp.completes, 0);
  EXPECT_TRUE(qp.posted.empty());
}

TEST(ExtendedPost, OnePassSaysEachRequestBeforeAskingForTheNext) {
  FakeExtendedQp qp;
  SendWorkRequest request = SendWorkRequest::rdma(IBV_WR_RDMA_WRITE, kPostedSge, kRemote);
  int said = 0;
  qp.on_request = [&] { ++said; };
  ASSERT_EQ(post_extended_each(qp.native(), 1, 3, request.native(), false,
                               [&](uint32_t k) -> ibv_send_wr& {
                                 EXPECT_EQ(said, static_cast<int>(k));  // the one before is said
                                 request.native().wr_id = 10 + k;
                                 return request.native();
                               }),
            0);
  EXPECT_EQ(qp.starts, 1);
  EXPECT_EQ(qp.completes, 1);
  ASSERT_EQ(qp.posted.size(), 3u);
  for (uint64_t k = 0; k < 3; ++k) EXPECT_EQ(qp.posted[k].wr_id, 10 + k);
}

TEST(ExtendedPost, SeveralPostsEachStartAndCompleteTheirOwnRequestsInOrder) {
  for (SendWorkRequest request :
       {SendWorkRequest::send(IBV_WR_SEND, kPostedSge),
        SendWorkRequest::rdma(IBV_WR_RDMA_WRITE, kPostedSge, kRemote),
        SendWorkRequest::rdma(IBV_WR_RDMA_READ, kPostedSge, kRemote),
        SendWorkRequest::fetch_add(ibv_sge{0x5000, 8, 7}, kRemote, 3),
        SendWorkRequest::compare_swap(ibv_sge{0x5000, 8, 7}, kRemote, 5, 6)}) {
    FakeExtendedQp qp;
    uint64_t readied = 0;
    ASSERT_EQ(post_extended_each(qp.native(), 3, 2, request.native(), false,
                                 [&](uint32_t) -> ibv_send_wr& {
                                   request.native().wr_id = ++readied;
                                   request.native().sg_list->addr = 0x6000 + readied;
                                   return request.native();
                                 }),
              0);
    EXPECT_EQ(qp.starts, 3) << request.native().opcode;
    EXPECT_EQ(qp.completes, 3) << request.native().opcode;
    ASSERT_EQ(qp.posted.size(), 6u);
    for (uint64_t k = 0; k < 6; ++k) {
      EXPECT_EQ(qp.posted[k].wr_id, k + 1) << request.native().opcode;
      EXPECT_EQ(qp.posted[k].opcode, request.native().opcode);
      EXPECT_EQ(qp.posted[k].sg_list->addr, 0x6000 + k + 1) << request.native().opcode;
    }
  }
}

TEST(ExtendedPost, APostRefusedEndsThePostsAfterIt) {
  FakeExtendedQp qp;
  qp.refuse_with = ENOMEM;
  SendWorkRequest request = SendWorkRequest::fetch_add(ibv_sge{0x5000, 8, 7}, kRemote, 3);
  EXPECT_EQ(post_extended_each(qp.native(), 4, 1, request.native(), false,
                               [&](uint32_t) -> ibv_send_wr& { return request.native(); }),
            ENOMEM);
  EXPECT_EQ(qp.starts, 1);
  EXPECT_EQ(qp.completes, 1);
  EXPECT_TRUE(qp.posted.empty());
}

TEST(ExtendedPost, OnePassStopsAtAnOperationWithoutAnExtendedCall) {
  FakeExtendedQp qp;
  ibv_send_wr wr{};
  wr.opcode = IBV_WR_LOCAL_INV;
  EXPECT_EQ(post_extended_each(qp.native(), 1, 4, wr, false,
                               [&](uint32_t) -> ibv_send_wr& { return wr; }),
            EINVAL);
  EXPECT_EQ(qp.aborts, 1);
  EXPECT_EQ(qp.completes, 0);
  EXPECT_TRUE(qp.posted.empty());
}

TEST(ExtendedPost, ARefusedCompletionIsReturnedAndPostsNothing) {
  FakeExtendedQp qp;
  qp.refuse_with = ENOMEM;
  SendWorkRequest request = SendWorkRequest::send(IBV_WR_SEND, kPostedSge);
  EXPECT_EQ(post_extended(qp.native(), request.native(), false), ENOMEM);
  EXPECT_TRUE(qp.posted.empty());
}

}  // namespace
}  // namespace rdmabench
