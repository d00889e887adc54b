// The server's log of refused connections (channel/refusal_log.h): bounded whatever a peer in a
// connect loop does, and every refusal still counted.
#include "channel/refusal_log.h"

#include <gtest/gtest.h>

#include <sstream>

namespace rdmabench {
namespace {

using Clock = RefusalLog::Clock;

size_t lines_of(const std::string& text) {
  size_t n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

TEST(RefusalLog, TwoThousandRefusalsOfOneAddressAreTwoLines) {
  std::ostringstream log;
  const Clock::time_point t0{};
  {
    RefusalLog refusals(log, "not in --allow 10.0.0.0/8");
    for (int i = 0; i < 2000; ++i) refusals.refused("127.0.0.2", t0 + std::chrono::milliseconds(i));
    EXPECT_EQ(lines_of(log.str()), 1u) << log.str();
  }  // the server stops: what is counted is told
  EXPECT_EQ(log.str(),
            "client 127.0.0.2: refused, not in --allow 10.0.0.0/8 (its further refusals are "
            "counted, told each minute)\n"
            "client 127.0.0.2: refused 1999 more times within 60 s, not in --allow 10.0.0.0/8\n");
}

// What the lobby waits for: a window's end while one is open, nothing else (it does not wake).
TEST(RefusalLog, SaysWhenItsOpenWindowEndsAndNothingWithoutOne) {
  std::ostringstream log;
  RefusalLog refusals(log, "not allowed");
  const Clock::time_point t0{};
  EXPECT_EQ(refusals.window_end(), std::nullopt);
  refusals.refused("10.1.0.1", t0 + std::chrono::seconds(5));
  refusals.refused("10.1.0.1", t0 + std::chrono::seconds(7));
  EXPECT_EQ(refusals.window_end(), t0 + std::chrono::seconds(65));
  refusals.tick(t0 + std::chrono::seconds(65));
  EXPECT_EQ(refusals.window_end(), std::nullopt);
}

TEST(RefusalLog, EachMinuteTellsItsCountsAndStartsAgain) {
  std::ostringstream log;
  RefusalLog refusals(log, "not in --allow 10.0.0.0/8");
  const Clock::time_point t0{};
  refusals.refused("10.1.0.1", t0);
  refusals.refused("10.1.0.1", t0 + std::chrono::seconds(1));
  refusals.refused("10.1.0.2", t0 + std::chrono::seconds(2));
  refusals.tick(t0 + std::chrono::seconds(59));
  EXPECT_EQ(lines_of(log.str()), 2u) << log.str();
  refusals.tick(t0 + std::chrono::seconds(60));
  EXPECT_NE(log.str().find("client 10.1.0.1: refused 1 more times within 60 s"), std::string::npos)
      << log.str();
  EXPECT_EQ(log.str().find("10.1.0.2: refused 0"), std::string::npos) << "nothing more to tell";
  refusals.refused("10.1.0.1", t0 + std::chrono::seconds(61));  // a new minute: its first again
  EXPECT_EQ(lines_of(log.str()), 4u) << log.str();
}

TEST(RefusalLog, AddressesBeyondTheCapAreOneCount) {
  std::ostringstream log;
  {
    RefusalLog refusals(log, "not in --allow 10.0.0.0/8");
    for (int i = 0; i < 5000; ++i)
      refusals.refused("10.2." + std::to_string(i / 256) + "." + std::to_string(i % 256),
                       Clock::time_point{});
  }
  EXPECT_EQ(lines_of(log.str()), kMostRefusingAddresses + 1) << log.str().substr(0, 2000);
  EXPECT_NE(log.str().find("refused " + std::to_string(5000 - kMostRefusingAddresses) +
                           " connections from addresses beyond the first"),
            std::string::npos);
}

}  // namespace
}  // namespace rdmabench
