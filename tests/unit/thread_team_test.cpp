#include "datapath/thread_team.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "core/error.h"

using namespace rdmabench;

TEST(ThreadTeam, EveryThreadRunsItsLane) {
  const RunAbort abort;
  std::atomic<int> seen{0};
  run_team(4, {}, abort, [&](uint32_t t) { seen |= 1 << t; });
  EXPECT_EQ(seen.load(), 0xf);
  EXPECT_FALSE(abort.raised.load());
}

TEST(ThreadTeam, AFailureStopsTheOthersAndIsWhatTheCallerSees) {
  const RunAbort abort;
  auto body = [&](uint32_t t) {
    if (t == 2) throw std::runtime_error("lane 2 failed");
    // The others wait as a completion loop would: until the flag is raised (or 5 s).
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!abort.raised.load()) {
      if (std::chrono::steady_clock::now() > until) throw std::runtime_error("not stopped");
      std::this_thread::yield();
    }
    throw std::runtime_error("aborted");
  };
  try {
    run_team(3, {}, abort, body);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "lane 2 failed");
  }
  EXPECT_TRUE(abort.raised.load());
}
