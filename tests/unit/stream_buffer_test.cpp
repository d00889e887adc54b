// How much a stream and a shared receive queue register: a bw receiver's ring holds what fits
// in the ring budget, except with --validate, where every receive posted (and every read in
// flight) keeps a slot of its own until its check, whatever the budget.
#include <gtest/gtest.h>

#include "bench/pattern_catalogue.h"
#include "datapath/qp_stream.h"
#include "datapath/shared_receives.h"
#include "spec_fixture.h"

using namespace rdmabench;

namespace {

constexpr uint64_t kSmallRing = uint64_t{4} * 4096;  // room for 4 slots of 4 KiB

TestSpec four_kib(const char* pattern, bool validate) {
  TestSpec s = a_spec(pattern, Mode::kBandwidth, 4096, 1, 1);
  s.rx_depth = 64;
  s.tx_depth = 16;
  s.validate = validate;
  return s;
}

}  // namespace

TEST(StreamBuffer, AReceiverRingFitsItsBudgetUnlessValidated) {
  EXPECT_EQ(QpStream::buffer_bytes(four_kib("send", false), Side::kServer, kSmallRing),
            4096u * (1 + 4));
  EXPECT_EQ(QpStream::buffer_bytes(four_kib("send", true), Side::kServer, kSmallRing),
            4096u * (1 + 64));
  EXPECT_EQ(SharedReceives::buffer_bytes(four_kib("send", false), kSmallRing), 4096u * 4);
  EXPECT_EQ(SharedReceives::buffer_bytes(four_kib("send", true), kSmallRing), 4096u * 64);
}

TEST(StreamBuffer, AValidatedReaderHasASlotForEachReadInFlight) {
  EXPECT_EQ(QpStream::buffer_bytes(four_kib("read", false), Side::kClient, kSmallRing),
            4096u * (1 + 1));
  EXPECT_EQ(QpStream::buffer_bytes(four_kib("read", true), Side::kClient, kSmallRing),
            4096u * (1 + 1 + 16));
}
