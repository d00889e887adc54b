// The one parser of times and the one of counts, which every command's time and count options
// read through.
#include <gtest/gtest.h>

#include "core/count_text.h"
#include "core/time_text.h"

using std::chrono::nanoseconds;
namespace rb = rdmabench;

namespace {

nanoseconds ns(int64_t n) {
  return nanoseconds(n);
}

TEST(TimeText, TakesSecondsAndEachUnit) {
  EXPECT_EQ(rb::parse_time("5"), ns(5'000'000'000));
  EXPECT_EQ(rb::parse_time("5s"), ns(5'000'000'000));
  EXPECT_EQ(rb::parse_time("250ms"), ns(250'000'000));
  EXPECT_EQ(rb::parse_time("40us"), ns(40'000));
  EXPECT_EQ(rb::parse_time("100ns"), ns(100));
  EXPECT_EQ(rb::parse_time("2m"), ns(120'000'000'000));
  EXPECT_EQ(rb::parse_time("1h"), ns(3'600'000'000'000));
}

TEST(TimeText, ReadsDecimalsExactly) {
  EXPECT_EQ(rb::parse_time("0.5"), ns(500'000'000));
  EXPECT_EQ(rb::parse_time(".5s"), ns(500'000'000));
  EXPECT_EQ(rb::parse_time("0.1"), ns(100'000'000));
  EXPECT_EQ(rb::parse_time("1.5m"), ns(90'000'000'000));
  EXPECT_EQ(rb::parse_time("0.001"), ns(1'000'000));
  EXPECT_EQ(rb::parse_time("0"), ns(0));
}

TEST(TimeText, RefusesWhatIsNotATime) {
  for (const char* text :
       {"",      "1x",           "5abc", "1hour", "10 ms", " 5",  "5,5",
        "-1",    "+1",           "1e3",  "5.",    ".",     "s",   "ms",
        "1.2.3", "5mss",         "0x10", "1min",  "nan",   "inf", "1234567890123",
        "1001h", "0.0000000001s"})
    EXPECT_FALSE(rb::parse_time(text)) << text;
  EXPECT_TRUE(rb::parse_time("1000h"));
}

TEST(TimeText, TextReadsBackToTheSameTime) {
  EXPECT_EQ(rb::time_text(ns(250'000'000)), "250ms");
  EXPECT_EQ(rb::time_text(ns(120'000'000'000)), "2m");
  EXPECT_EQ(rb::time_text(ns(86'400'000'000'000)), "24h");
  EXPECT_EQ(rb::time_text(ns(1'500'000'000)), "1500ms");
  EXPECT_EQ(rb::time_text(ns(0)), "0s");
  for (const int64_t n :
       {int64_t{1}, int64_t{1'001}, int64_t{3'000'000'007}, int64_t{90'000'000'000}})
    EXPECT_EQ(rb::parse_time(rb::time_text(ns(n))), ns(n)) << n;
}

TEST(CountText, TakesWholeNumbersAndDecimalMultipliers) {
  EXPECT_EQ(rb::parse_count("5000"), 5000u);
  EXPECT_EQ(rb::parse_count("10k"), 10'000u);
  EXPECT_EQ(rb::parse_count("10K"), 10'000u);
  EXPECT_EQ(rb::parse_count("1.5M"), 1'500'000u);
  EXPECT_EQ(rb::parse_count("2G"), 2'000'000'000u);
  EXPECT_EQ(rb::parse_count("0"), 0u);
  EXPECT_EQ(rb::parse_count("1.0"), 1u);
  // Before: more than 12 digits were refused, so --iters refused 10000000000000 while its
  // refusal said it takes 1 to 70368744177664.
  EXPECT_EQ(rb::parse_count("10000000000000"), 10'000'000'000'000u);
  EXPECT_EQ(rb::parse_count("1000000000000000"), 1'000'000'000'000'000u);  // the most
}

TEST(CountText, RefusesWhatIsNotACount) {
  for (const char* text :
       {"", "1.5", "1.0005k", "10m", "10g", "1Ki", "10KiB", "-1", "+1", " 1", "1e3", "1,000", "k",
        ".5k", "5.", "0x10", "1000000000000001", "99999999999999999999", "1001T"})
    EXPECT_FALSE(rb::parse_count(text)) << text;
}

}  // namespace
