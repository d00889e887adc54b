#include "core/wait_readable.h"

#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <thread>

using namespace rdmabench;
using namespace std::chrono_literals;

namespace {
void ignore_signal(int) {}
}  // namespace

TEST(WaitReadable, ASignalDoesNotEndTheWait) {
  // Before: poll's EINTR was reported as a timeout, failing a completion wait at once.
  struct sigaction action {};
  action.sa_handler = ignore_signal;  // no SA_RESTART: poll returns EINTR
  struct sigaction previous {};
  ASSERT_EQ(sigaction(SIGUSR1, &action, &previous), 0);
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pthread_t waiter = pthread_self();
  std::thread poker([&] {
    std::this_thread::sleep_for(50ms);
    pthread_kill(waiter, SIGUSR1);
    std::this_thread::sleep_for(150ms);
    ASSERT_EQ(write(fds[1], "x", 1), 1);
  });
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(wait_readable(fds[0], 5000ms, "poll(test pipe)"));
  EXPECT_GE(std::chrono::steady_clock::now() - start, 150ms);
  poker.join();
  close(fds[0]);
  close(fds[1]);
  sigaction(SIGUSR1, &previous, nullptr);
}

TEST(WaitReadable, TimesOutWhenNothingComes) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(wait_readable(fds[0], 100ms, "poll(test pipe)"));
  EXPECT_GE(std::chrono::steady_clock::now() - start, 100ms);
  close(fds[0]);
  close(fds[1]);
}

TEST(WaitReadable, APollTimeoutIsWhatIsLeftRoundedUpAndNeverNegative) {
  const auto now = std::chrono::steady_clock::now();
  EXPECT_EQ(poll_timeout_ms(now - 5s), 0);
  const int hour = poll_timeout_ms(now + 1h);
  EXPECT_LE(hour, 3'600'000);
  EXPECT_GT(hour, 3'590'000);
  // Beyond what poll takes: its largest timeout, not a wrapped negative one.
  EXPECT_EQ(poll_timeout_ms(now + std::chrono::hours(24 * 365 * 100)), INT32_MAX);
}
