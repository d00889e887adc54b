// The spinning strategies' waits (busy; yield, which gives the core away after each empty poll;
// dynamic, whose batch perftest's rule sets) on a fake CQ: what each decides when completions come,
// when none come, and when the run is ended under it.
#include <gtest/gtest.h>

#include <array>
#include <chrono>

#include "core/error.h"
#include "cq/busy_poller.h"
#include "cq/dynamic_poller.h"
#include "cq/yield_poller.h"
#include "fake_cq.h"

using namespace rdmabench;
using rdmabench::testing::FakeCq;
using rdmabench::testing::FakeTarget;

template <typename Poller>
class SpinningPoller : public ::testing::Test {};
using Spinners = ::testing::Types<BusyPoller, YieldPoller, DynamicPoller>;
TYPED_TEST_SUITE(SpinningPoller, Spinners);

TYPED_TEST(SpinningPoller, ReturnsTheFirstCompletionsAndCountsEveryEmptyPollBeforeThem) {
  FakeCq fake({0, 0, 0, 2, 5});
  FakeTarget run(fake, TypeParam::kInfo.name);
  TypeParam poller(run.target);
  std::array<ibv_wc, 32> out{};
  EXPECT_EQ(poller.wait(out), 2);
  EXPECT_EQ(fake.calls(), 4);
  EXPECT_EQ(run.counts.empty_polls, 3u);
  EXPECT_EQ(out[0].wr_id, 4u);  // the fourth call's completions
  EXPECT_EQ(poller.wait(out), 5);
  EXPECT_EQ(run.counts.empty_polls, 3u);
  EXPECT_EQ(run.counts.wakeups, 0u);  // a spinning side never blocks
}

TYPED_TEST(SpinningPoller, AsksForNoMoreThanThePollBatch) {
  FakeCq fake({40});
  FakeTarget run(fake, TypeParam::kInfo.name);
  run.target.batch = 16;
  TypeParam poller(run.target);
  std::array<ibv_wc, 32> out{};
  EXPECT_EQ(poller.wait(out), 16);
}

TYPED_TEST(SpinningPoller, GivesUpWithATimeoutErrorNotBeforeTheTargetsTimeout) {
  FakeCq fake({});
  FakeTarget run(fake, TypeParam::kInfo.name, std::chrono::milliseconds(50));
  TypeParam poller(run.target);
  std::array<ibv_wc, 32> out{};
  const auto start = std::chrono::steady_clock::now();
  try {
    poller.wait(out);
    FAIL() << "a wait on a CQ that never completes returned";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kRuntime);
    const std::string named = "send/bw/" + std::string(TypeParam::kInfo.name) + "/64";
    EXPECT_NE(std::string(e.what()).find("no completion within 50 ms in " + named),
              std::string::npos)
        << e.what();
  }
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(50));
  EXPECT_EQ(run.counts.empty_polls, static_cast<uint64_t>(fake.calls()));
}

TYPED_TEST(SpinningPoller, AnAbortEndsTheWaitAsAnEarlyEndOrAsThePeersEndOfSending) {
  FakeCq fake({});
  FakeTarget run(fake, TypeParam::kInfo.name, std::chrono::hours(1));
  TypeParam poller(run.target);
  std::array<ibv_wc, 32> out{};
  run.abort = true;
  try {
    poller.wait(out);
    FAIL() << "an aborted wait returned";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kConnection) << e.what();
  }
  std::atomic<bool> peer_ended{true};
  run.target.peer_ended = &peer_ended;
  EXPECT_EQ(poller.wait(out), kPeerEnded);
  // The flag is looked at once every 1024 polls, not on each (the hot loop reads memory only).
  EXPECT_EQ(fake.calls(), 2 * 1024);
}

// A clock that counts its reads, each a second after the last.
struct CountingNow {
  int* reads;
  uint64_t operator()() const noexcept { return uint64_t(++*reads) * 1'000'000'000; }
};

// Before, every spinning wait read the clock at its 1,024th poll and every 1,024 after: in the
// rxe guest, whose clock source has no vDSO, each a system call, 32 more over the 4,096 more
// messages of write bw 64 B -l 8's 2N run than of its N run, where perftest reads none
// (vs-perftest --cost: 0.133 system calls a message against 0.124).
TEST(SpinDeadline, ABusyWaitReadsTheClockOnceEvery16384PollsAYieldingOneEvery1024) {
  FakeCq fake({});
  FakeTarget run(fake, "busy", std::chrono::milliseconds(1500));
  int reads = 0;
  SpinDeadline busy(run.target, kClockEverySpinning, CountingNow{&reads});
  for (uint32_t spins = 0; spins < 16383; ++spins) ASSERT_EQ(busy.check(spins), 0) << spins;
  EXPECT_EQ(reads, 0);
  EXPECT_EQ(busy.check(16383), 0);          // read at 1 s: the deadline is 2.5 s
  EXPECT_EQ(busy.check(2 * 16384 - 1), 0);  // 2 s
  EXPECT_EQ(reads, 2);
  EXPECT_THROW(busy.check(3 * 16384 - 1), Error);  // 3 s: past it
  int yield_reads = 0;
  SpinDeadline yielding(run.target, kClockEveryYielding, CountingNow{&yield_reads});
  for (uint32_t spins = 0; spins < 1023; ++spins) ASSERT_EQ(yielding.check(spins), 0) << spins;
  EXPECT_EQ(yield_reads, 0);
  EXPECT_EQ(yielding.check(1023), 0);
  EXPECT_EQ(yield_reads, 1);
}

// The abort flag is still looked at every 1,024 turns, whatever the clock's cadence.
TEST(SpinDeadline, AnAbortIsSeenWithin1024Turns) {
  FakeCq fake({});
  FakeTarget run(fake, "busy", std::chrono::hours(1));
  int reads = 0;
  SpinDeadline busy(run.target, kClockEverySpinning, CountingNow{&reads});
  run.abort = true;
  EXPECT_EQ(busy.check(1022), 0);
  EXPECT_THROW(busy.check(1023), Error);
  EXPECT_EQ(reads, 0);
}
