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
