// Open-loop latency over many connections, its accounting without a device (issue 68): when
// each connection's round trips are meant to start (fixed spacing, Poisson), which connection a
// reply on the shared CQ belongs to, and each connection's samples, counted from the intended
// start, so that a stall shows in every round trip behind it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "core/error.h"
#include "datapath/open_loop_book.h"

namespace rdmabench {
namespace {

std::vector<ArrivalTimes> fixed(uint32_t n, uint64_t period) {
  std::vector<ArrivalTimes> s;
  for (uint32_t c = 0; c < n; ++c) s.emplace_back(Arrivals::kFixed, 0, period, c, n, 1);
  return s;
}

TEST(ArrivalTimes, FixedSpacingInterleavesTheConnections) {
  std::vector<ArrivalTimes> s = fixed(4, 1000);
  for (uint32_t c = 0; c < 4; ++c) EXPECT_EQ(s[c].next(), 250u * c);
  s[3].advance();
  s[3].advance();
  EXPECT_EQ(s[3].next(), 2750u);
}

TEST(ArrivalTimes, PoissonGapsAreSeededPerConnectionAndAverageThePeriod) {
  ArrivalTimes a(Arrivals::kPoisson, 0, 1000, 0, 2, 7), again(Arrivals::kPoisson, 0, 1000, 0, 2, 7);
  ArrivalTimes other(Arrivals::kPoisson, 0, 1000, 1, 2, 7);
  std::vector<uint64_t> gaps;
  uint64_t last = 0;
  bool differs = false;
  for (int i = 0; i < 20000; ++i) {
    EXPECT_EQ(a.next(), again.next());
    differs = differs || a.next() != other.next();
    gaps.push_back(a.next() - last);
    last = a.next();
    a.advance();
    again.advance();
    other.advance();
  }
  EXPECT_TRUE(differs);
  const double mean = static_cast<double>(last) / 20000;
  EXPECT_NEAR(mean, 1000, 30);
  // Exponential, not fixed: about 1 - 1/e of the gaps are shorter than the mean.
  const auto shorter = std::count_if(gaps.begin(), gaps.end(), [](uint64_t g) { return g < 1000; });
  EXPECT_NEAR(static_cast<double>(shorter) / 20000, 0.632, 0.02);
}

// A clock the fake CQ moves, and replies that come back `delay[c]` after connection c posts.
struct FakeRun {
  struct Clock {
    uint64_t t = 0;
    uint64_t now_ns() const { return t; }
  } clock;
  std::vector<uint64_t> delay;
  std::multimap<uint64_t, uint32_t> replies;         // when, connection
  std::vector<std::pair<uint64_t, uint32_t>> posts;  // when, connection

  void run(OpenLoopBook& book, uint64_t stop_at) {
    run_open_loop(
        book, clock, stop_at,
        [&](uint32_t c) {
          posts.emplace_back(clock.t, c);
          replies.emplace(clock.t + delay[c], c);
        },
        [&](auto&& on_reply, uint64_t next_start) {
          const uint64_t reply = replies.empty() ? UINT64_MAX : replies.begin()->first;
          clock.t = std::max(clock.t, std::min(reply, next_start));
          while (!replies.empty() && replies.begin()->first <= clock.t) {
            const uint32_t c = replies.begin()->second;
            replies.erase(replies.begin());
            on_reply(c);
          }
        });
  }
};

// A book over one connection a delay, `period` apart, with room for `room` samples each, and
// the fake run that answers each after its delay.
struct BookedRun {
  BookedRun(std::vector<uint64_t> delays, uint64_t period, size_t room, uint64_t window_start,
            uint64_t window_end, uint64_t limit = UINT64_MAX)
      : storage(delays.size() * room),
        book(fixed(static_cast<uint32_t>(delays.size()), period), storage, window_start, window_end,
             limit) {
    run.delay = std::move(delays);
  }
  std::vector<uint64_t> storage;
  OpenLoopBook book;
  FakeRun run;
};

TEST(OpenLoopBook, EachConnectionStartsOnItsScheduleAndKeepsItsOwnSamples) {
  BookedRun booked({10, 20, 30}, 300, 100, 0, 3000);
  OpenLoopBook& book = booked.book;
  FakeRun& run = booked.run;
  run.run(book, 3000);
  ASSERT_EQ(run.posts.size(), 30u);
  for (const auto& [when, c] : run.posts) EXPECT_EQ(when % 300, 100 * c) << when;
  for (uint32_t c = 0; c < 3; ++c) {
    ASSERT_EQ(book.samples(c).size(), 10u) << c;
    for (uint64_t s : book.samples(c)) EXPECT_EQ(s, run.delay[c]) << c;
  }
  EXPECT_EQ(book.out(), 0u);
}

TEST(OpenLoopBook, AStalledConnectionCountsFromWhenEachRoundTripWasMeantToStart) {
  // Connection 0's replies take 250 where its round trips are 100 apart: the k-th (from 0) goes
  // out at 250 k, back at 250 (k + 1), meant at 100 k: 250 + 150 k. Connection 1 is not held up.
  BookedRun booked({250, 5}, 100, 100, 0, 10'000);
  OpenLoopBook& book = booked.book;
  FakeRun& run = booked.run;
  run.run(book, 1000);
  const std::span<const uint64_t> stalled = book.samples(0);
  ASSERT_GE(stalled.size(), 4u);
  for (size_t k = 0; k < stalled.size(); ++k) EXPECT_EQ(stalled[k], 250 + 150 * k) << k;
  ASSERT_EQ(book.samples(1).size(), 10u);
  for (uint64_t s : book.samples(1)) EXPECT_EQ(s, 5u);
}

TEST(OpenLoopBook, OnlyRoundTripsInsideTheWindowAreCounted) {
  BookedRun booked({60}, 100, 100, 200, 650);
  OpenLoopBook& book = booked.book;
  FakeRun& run = booked.run;
  run.run(book, 1000);
  // Meant at 200, 300, 400, 500 (back by 560); 600 is back at 660, after the window.
  EXPECT_EQ(book.samples(0).size(), 4u);
}

TEST(OpenLoopBook, AReplyOnAConnectionWithNothingOutIsRefused) {
  std::vector<uint64_t> storage(20);  // 2 connections x 10
  OpenLoopBook book(fixed(2, 100), storage, 0, 1000);
  book.start(0);
  EXPECT_NO_THROW(book.finish(0, 50));
  try {
    book.finish(1, 60);
    FAIL() << "a stray reply was taken";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kRuntime);
    EXPECT_NE(std::string(e.what()).find("connection 1, which had no round trip out"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(book.finish(7, 60), Error);
}

TEST(OpenLoopBook, AWindowHoldingMoreThanItsRoomIsAUsageError) {
  BookedRun booked({1}, 100, 3, 0, 10'000);
  OpenLoopBook& book = booked.book;
  FakeRun& run = booked.run;
  try {
    run.run(book, 1000);
    FAIL() << "more samples than room were kept";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage);
  }
}

// Back to back (no rate): each connection's next round trip is due when the one before came
// back, counted from then, and none starts after the stop.
TEST(OpenLoopBook, BackToBackEachConnectionGoesAgainWhenItsReplyIsBack) {
  BookedRun booked({30, 70}, 0, 100, 0, 10'000);
  OpenLoopBook& book = booked.book;
  FakeRun& run = booked.run;
  run.run(book, 1000);
  // Connection 0 goes at 0, 30, ..., 990 (34 of them), connection 1 at 0, 70, ..., 980 (15).
  EXPECT_EQ(book.started(0), 34u);
  EXPECT_EQ(book.started(1), 15u);
  for (uint32_t c = 0; c < 2; ++c)
    for (uint64_t s : book.samples(c)) EXPECT_EQ(s, run.delay[c]) << c;
  for (const auto& [when, c] : run.posts) EXPECT_LT(when, 1000u);
  EXPECT_EQ(book.out(), 0u);
}

// By iterations: each connection starts its count and no more, every one counted, and the run
// ends when the last is back, with no stop time given.
TEST(OpenLoopBook, ByIterationsEachConnectionStartsItsCountAndTheRunEnds) {
  // Connection 1 falls behind its schedule.
  BookedRun booked({5, 150, 40}, 100, 7, 0, UINT64_MAX, 7);
  OpenLoopBook& book = booked.book;
  FakeRun& run = booked.run;
  run.run(book, UINT64_MAX);
  ASSERT_EQ(run.posts.size(), 21u);
  for (uint32_t c = 0; c < 3; ++c) {
    EXPECT_EQ(book.started(c), 7u) << c;
    EXPECT_EQ(book.samples(c).size(), 7u) << c;
  }
  EXPECT_EQ(book.out(), 0u);
  // From connection 0's first intended start (0) to the last reply: connection 1's 7th, sent
  // at 6 x 150 + 100 / 3 (its shift) and back 150 later.
  EXPECT_EQ(book.counted_span_ns(), 7 * 150 + 100 / 3);
}

}  // namespace
}  // namespace rdmabench
