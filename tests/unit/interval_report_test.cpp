// run --report-every: the interval line, and the reporter reading live counts.
#include "runner/interval_report.h"

#include <gtest/gtest.h>

#include <mutex>
#include <sstream>
#include <thread>

namespace rdmabench {
namespace {

TEST(IntervalReport, LineGivesTheIntervalItsMessagesAndTheirRate) {
  const std::string line = interval_line("write/bw/busy/65536", 2, 3, 1600, 65536);
  EXPECT_NE(line.find("[   2.0-   3.0 s] write/bw/busy/65536"), std::string::npos) << line;
  EXPECT_NE(line.find(" 1600 msgs"), std::string::npos) << line;
  EXPECT_NE(line.find(" 100.00 MiB/s"), std::string::npos) << line;  // 1600 x 64 KiB in 1 s
  EXPECT_NE(line.find(" 0.839 Gb/s"), std::string::npos) << line;
}

// The messages of every line printed so far.
uint64_t reported(const std::string& text) {
  std::istringstream in(text);
  uint64_t sum = 0;
  for (std::string word, last; in >> word; last = word)
    if (word == "msgs") sum += std::stoull(last);
  return sum;
}

TEST(IntervalReport, ReportsEverySendOnceAndNothingAfterItStops) {
  // Asserts what the reporter decides (each send in exactly one interval, silence once
  // stopped), not how soon a loaded machine wakes it.
  LiveCounts live(2);
  PeakInterval peak;
  std::mutex mutex;
  std::string text;  // written by the reporter's thread until it is stopped
  auto so_far = [&] {
    const std::lock_guard lock(mutex);
    return text;
  };
  std::string seen;
  {
    IntervalReport report(
        [&](const std::string& line) {
          const std::lock_guard lock(mutex);
          text += line + "\n";
        },
        "send/bw/busy/4096", 4096, live, std::chrono::milliseconds(20), peak);
    live.slot(0) = 10;
    live.slot(1) = 5;
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      if (live.slot(0) == 10) live.slot(0) = 30;  // more sends after the reporter started
      if (reported(so_far()) == 35) break;
    }
  }
  seen = so_far();
  EXPECT_EQ(reported(seen), 35u) << seen;
  EXPECT_NE(seen.find("send/bw/busy/4096"), std::string::npos) << seen;
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  EXPECT_EQ(so_far(), seen);
  // Some interval carried sends, so the best one has a rate.
  ASSERT_TRUE(peak.bytes_per_second.has_value());
  EXPECT_GT(*peak.bytes_per_second, 0);
}

TEST(IntervalReport, ThePeakIsTheBestIntervalOverTheTimeItReallyTook) {
  PeakInterval peak;
  EXPECT_FALSE(peak.bytes_per_second.has_value());  // no interval ended: nothing, not 0
  peak.take(1000, 1.0);
  peak.take(3000, 2.0);  // 1500 B/s
  peak.take(900, 1.0);
  peak.take(5000, 0.0);  // no time: no rate
  ASSERT_TRUE(peak.bytes_per_second.has_value());
  EXPECT_DOUBLE_EQ(*peak.bytes_per_second, 1500.0);
}

}  // namespace
}  // namespace rdmabench
