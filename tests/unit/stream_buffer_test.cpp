// How much a stream and a shared receive queue register: a bw receiver lands every receive in
// one slot, as perftest does, but with --verify, whose ring holds what fits in the ring budget,
// and --validate, where every receive posted (and every read in flight) keeps a slot of its own
// until its check, whatever the budget.
#include <gtest/gtest.h>

#include "bench/pattern_catalogue.h"
#include "datapath/qp_stream.h"
#include "datapath/shared_receives.h"
#include "spec_fixture.h"

using namespace rdmabench;

namespace {

constexpr uint64_t kSmallRing = uint64_t{4} * 4096;  // room for 4 slots of 4 KiB

enum class Check { kNone, kVerify, kValidate };

TestSpec four_kib(const char* pattern, Check check) {
  TestSpec s = a_spec(pattern, Mode::kBandwidth, 4096, 1, 1);
  s.rx_depth = 64;
  s.tx_depth = 16;
  s.verify = check == Check::kVerify;
  s.validate = check == Check::kValidate;
  return s;
}

}  // namespace

TEST(StreamBuffer, AReceiverRingFitsItsBudgetUnderVerifyAndHoldsEveryReceiveUnderValidate) {
  EXPECT_EQ(QpStream::buffer_bytes(four_kib("send", Check::kVerify), Side::kServer, kSmallRing),
            4096u * (1 + 4));
  EXPECT_EQ(QpStream::buffer_bytes(four_kib("send", Check::kValidate), Side::kServer, kSmallRing),
            4096u * (1 + 64));
  EXPECT_EQ(SharedReceives::buffer_bytes(four_kib("send", Check::kVerify), kSmallRing), 4096u * 4);
  EXPECT_EQ(SharedReceives::buffer_bytes(four_kib("send", Check::kValidate), kSmallRing),
            4096u * 64);
}

// Issue 67: perftest's receives all land in its one-page cycle buffer; ours each took a slot of
// a ring of up to 64 MiB a run (512 of 4 KiB), a footprint perftest's receiver has not.
TEST(StreamBuffer, AReceiverWhoseDataNothingReadsLandsEveryReceiveInOneSlot) {
  constexpr uint64_t kRunRing = uint64_t{64} << 20;
  for (const char* pattern : {"send", "send_imm", "write_imm"}) {
    EXPECT_EQ(QpStream::buffer_bytes(four_kib(pattern, Check::kNone), Side::kServer, kRunRing),
              4096u * (1 + 1))
        << pattern;
    EXPECT_EQ(SharedReceives::buffer_bytes(four_kib(pattern, Check::kNone), kRunRing), 4096u)
        << pattern;
  }
}

TEST(StreamBuffer, AValidatedReaderHasASlotForEachReadInFlight) {
  EXPECT_EQ(QpStream::buffer_bytes(four_kib("read", Check::kNone), Side::kClient, kSmallRing),
            4096u * (1 + 1));
  EXPECT_EQ(QpStream::buffer_bytes(four_kib("read", Check::kValidate), Side::kClient, kSmallRing),
            4096u * (1 + 1 + 16));
}
