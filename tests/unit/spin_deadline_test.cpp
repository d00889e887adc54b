// SpinDeadline, the deadline of a spinning wait (busy, yield, dynamic): it looks at the abort
// flag every 1024 turns but reads the clock only every 16384, since where the clock source has
// no vDSO each read is a system call (a busy client of siw's write bw 64 KiB made 4.1 to 5.6 a
// message reading it every 1024 turns, 2026-12-06); and still gives up at the timeout.
#include <gtest/gtest.h>

#include <chrono>
#include <deque>

#include "core/error.h"
#include "cq/poll_steps.h"
#include "fake_cq.h"

using rdmabench::Error;
using rdmabench::SpinDeadline;

namespace {

// A clock that counts its reads and moves on by `step_ns` at each.
struct SpinTestClock {
  int* reads;
  uint64_t* t;
  uint64_t step_ns;
  uint64_t now_ns() const noexcept {
    ++*reads;
    return *t += step_ns;
  }
};

struct SpinDeadlineTest : ::testing::Test {
  rdmabench::testing::FakeCq fake{std::deque<int>{}};
  rdmabench::testing::FakeTarget holder{fake, "busy", std::chrono::milliseconds(200)};
  int reads = 0;
  uint64_t t = 1'000'000'000;
};

TEST_F(SpinDeadlineTest, ReadsTheClockOnceEvery16384TurnsNotEvery1024) {
  SpinDeadline deadline(holder.target, SpinTestClock{&reads, &t, 1000});
  for (uint32_t spins = 0; spins < 4 * 16384; ++spins) ASSERT_EQ(deadline.check(spins), 0);
  EXPECT_EQ(reads, 4);
}

TEST_F(SpinDeadlineTest, SeesAnAbortWithin1024TurnsWithoutReadingTheClock) {
  SpinDeadline deadline(holder.target, SpinTestClock{&reads, &t, 1000});
  for (uint32_t spins = 0; spins < 1000; ++spins) ASSERT_EQ(deadline.check(spins), 0);
  holder.abort = true;
  uint32_t spins = 1000;
  EXPECT_THROW(
      {
        for (; spins < 1024; ++spins) (void)deadline.check(spins);
      },
      Error);
  EXPECT_EQ(spins, 1023u);
  EXPECT_EQ(reads, 0);
}

TEST_F(SpinDeadlineTest, GivesUpAtTheTimeoutCountedFromItsFirstClockRead) {
  // Each read moves the clock on by 60 ms: the deadline is 200 ms after the first read, so the
  // fourth read (180 ms on) is within it and the fifth (240 ms on) past it.
  SpinDeadline deadline(holder.target, SpinTestClock{&reads, &t, 60'000'000});
  uint32_t spins = 0;
  try {
    for (; spins < 10 * 16384; ++spins) (void)deadline.check(spins);
    FAIL() << "no timeout";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no completion within 200 ms"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(reads, 5);
  EXPECT_EQ(spins, 5 * 16384 - 1);
}

}  // namespace
