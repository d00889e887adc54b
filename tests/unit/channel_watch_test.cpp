// The bound on a blocking wait for completion events (cq/channel_watch.h): the waiter blocks in
// read(2) on the channel, and the watch's thread ends the read at the timeout or at the run's
// abort, never earlier for any other signal. The channel here is a pipe's read end, where no
// event ever comes; each test's upper time bound only guards against a hang.
#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <thread>

#include "core/error.h"
#include "core/system_error.h"
#include "cq/channel_watch.h"
#include "cq/event_poller.h"
#include "fake_cq.h"

using namespace rdmabench;
using namespace std::chrono_literals;
using rdmabench::testing::FakeCq;
using rdmabench::testing::FakeTarget;
using Clock = std::chrono::steady_clock;

namespace {

// A pipe whose read end stands for a completion channel's descriptor.
struct Pipe {
  Pipe() { EXPECT_EQ(pipe(fds.data()), 0); }
  ~Pipe() {
    close(fds[0]);
    close(fds[1]);
  }
  int read_end() const { return fds[0]; }
  int write_end() const { return fds[1]; }
  std::array<int, 2> fds{};
};

std::chrono::milliseconds since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
}

}  // namespace

TEST(ChannelWatch, EndsAWaitNoEventEndsAtItsTimeoutNotBefore) {
  FakeCq fake({});
  Pipe p;
  fake.use_channel_fd(p.read_end());
  fake.channel().read_blocking(true);
  ChannelWatch watch(120ms, -1);
  const auto start = Clock::now();
  EXPECT_EQ(watch.wait(fake.channel()), nullptr);
  EXPECT_GE(since(start), 120ms);
  EXPECT_LT(since(start), 120ms + 20 * watch.tick());  // ended, not left hanging
}

TEST(ChannelWatch, AnotherSignalDoesNotEndTheWait) {
  FakeCq fake({});
  Pipe p;
  fake.use_channel_fd(p.read_end());
  fake.channel().read_blocking(true);
  ChannelWatch watch(300ms, -1);
  const pthread_t waiter = pthread_self();
  std::thread other([waiter] {  // the watch's own signal, sent by someone else, twice
    std::this_thread::sleep_for(40ms);
    pthread_kill(waiter, SIGRTMIN);
    std::this_thread::sleep_for(40ms);
    pthread_kill(waiter, SIGRTMIN);
  });
  const auto start = Clock::now();
  EXPECT_EQ(watch.wait(fake.channel()), nullptr);
  EXPECT_GE(since(start), 300ms);
  other.join();
}

TEST(ChannelWatch, TheRunsAbortEndsTheWaitLongBeforeItsTimeout) {
  FakeCq fake({});
  Pipe p;
  fake.use_channel_fd(p.read_end());
  fake.channel().read_blocking(true);
  const int abort_fd = eventfd(0, EFD_CLOEXEC);
  ASSERT_GE(abort_fd, 0);
  ChannelWatch watch(60s, abort_fd);
  std::thread aborter([abort_fd] {
    std::this_thread::sleep_for(50ms);
    const uint64_t one = 1;
    EXPECT_EQ(write(abort_fd, &one, sizeof one), static_cast<ssize_t>(sizeof one));
  });
  const auto start = Clock::now();
  EXPECT_EQ(watch.wait(fake.channel()), nullptr);
  EXPECT_LT(since(start), 30s);
  aborter.join();
  close(abort_fd);
}

TEST(ChannelWatch, EachWaitHasItsOwnDeadline) {
  FakeCq fake({});
  Pipe p;
  fake.use_channel_fd(p.read_end());
  fake.channel().read_blocking(true);
  ChannelWatch watch(100ms, -1);
  for (int i = 0; i < 3; ++i) {  // the second wait is not ended by the first one's end
    const auto start = Clock::now();
    EXPECT_EQ(watch.wait(fake.channel()), nullptr);
    EXPECT_GE(since(start), 100ms) << "wait " << i;
  }
}

TEST(ChannelWatch, AShortReadIsAnErrorNamingTheCall) {
  FakeCq fake({});
  Pipe p;
  fake.use_channel_fd(p.read_end());
  fake.channel().read_blocking(true);
  ASSERT_EQ(write(p.write_end(), "abc", 3), 3);  // less than an event's 8 bytes
  ChannelWatch watch(10s, -1);
  try {
    watch.wait(fake.channel());
    FAIL() << "a short read was taken for an event or a wait";
  } catch (const SystemError& e) {
    EXPECT_EQ(e.call(), "ibv_get_cq_event");
    EXPECT_EQ(e.exit_code(), ExitCode::kRuntime);
  }
}

TEST(EventPollerWatched, GivesUpWithTheTimeoutErrorAndCountsNoWakeup) {
  FakeCq fake({});
  Pipe p;
  fake.use_channel_fd(p.read_end());
  FakeTarget run(fake, "event", 100ms);
  ChannelWatch watch(run.target.timeout, -1);
  run.target.watch = &watch;
  EventPoller poller(run.target);
  std::array<ibv_wc, 32> out{};
  const auto start = Clock::now();
  try {
    poller.wait(out);
    FAIL() << "a wait on a CQ that never completes returned";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kRuntime);
    EXPECT_NE(std::string(e.what()).find("no completion within 100 ms in send/bw/event/64"),
              std::string::npos)
        << e.what();
  }
  EXPECT_GE(since(start), 100ms);
  EXPECT_EQ(run.counts.wakeups, 0u);
  EXPECT_EQ(fake.calls(), 2);  // polled, armed, polled again, blocked
}

TEST(EventPollerWatched, AnAbortedRunEndsTheWaitAsAborted) {
  FakeCq fake({});
  Pipe p;
  fake.use_channel_fd(p.read_end());
  FakeTarget run(fake, "event", 60s);
  const int abort_fd = eventfd(0, EFD_CLOEXEC);
  ASSERT_GE(abort_fd, 0);
  ChannelWatch watch(run.target.timeout, abort_fd);
  run.target.watch = &watch;
  EventPoller poller(run.target);
  std::thread aborter([&] {
    std::this_thread::sleep_for(50ms);
    run.abort = true;  // as RunAbort::raise: the flag, then the descriptor
    const uint64_t one = 1;
    EXPECT_EQ(write(abort_fd, &one, sizeof one), static_cast<ssize_t>(sizeof one));
  });
  std::array<ibv_wc, 32> out{};
  try {
    poller.wait(out);
    FAIL() << "an aborted wait returned";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kConnection) << e.what();
  }
  aborter.join();
  close(abort_fd);
}

TEST(EventPollerWatched, RefusesToBlockWithoutAWatch) {
  FakeCq fake({});
  FakeTarget run(fake, "event");
  try {
    EventPoller poller(run.target);
    FAIL() << "an event poller was made with nothing to bound its waits";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kInternal);
  }
}
