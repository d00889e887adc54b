// --min-bw and --max-lat: what a row is judged by.
#include "runner/pass_limits.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "spec_fixture.h"

namespace rdmabench {
namespace {

using BenchRun = benchmark::BenchmarkReporter::Run;

BenchRun a_run(const char* counter, double value) {
  BenchRun run;
  run.run_type = BenchRun::RT_Iteration;
  run.counters[counter] = benchmark::Counter(value);
  return run;
}

TEST(PassLimits, ParsesStatisticAndMicroseconds) {
  const LatencyLimit l = parse_latency_limit("p99.9:20.5");
  EXPECT_EQ(l.counter, "lat_p999_us");
  EXPECT_DOUBLE_EQ(l.us, 20.5);
  EXPECT_EQ(parse_latency_limit("max:3").counter, "lat_max_us");
  for (const char* bad : {"p99", "p99:", "p42:5", "p99:0", "p99:x", ":5", "p99:5us"})
    EXPECT_THROW(parse_latency_limit(bad), Error) << bad;
  EXPECT_DOUBLE_EQ(parse_min_bandwidth("12.5"), 12.5);
  for (const char* bad : {"", "0", "-1", "10G", "nan"})
    EXPECT_THROW(parse_min_bandwidth(bad), Error);
}

TEST(PassLimits, BandwidthBelowTheLimitMissesItWithTheFigure) {
  PassLimits limits;
  limits.min_bw_gbps = 10;
  const TestSpec bw = a_spec("write", Mode::kBandwidth, 65536, 1, 1);
  EXPECT_EQ(missed_limit(limits, bw, a_run("bytes_per_second", 1e9)), "8 Gb/s, below --min-bw 10");
  EXPECT_EQ(missed_limit(limits, bw, a_run("bytes_per_second", 1.25e9)), "");  // exactly 10
  limits.min_bw_gbps = 1000;                                                   // not "1e+03"
  EXPECT_EQ(missed_limit(limits, bw, a_run("bytes_per_second", 1e9)),
            "8 Gb/s, below --min-bw 1000");
  const TestSpec lat = a_spec("write", Mode::kLatency, 2, 1, 1);  // no latency limit given
  EXPECT_EQ(missed_limit(limits, lat, a_run("lat_p99_us", 1e6)), "");
}

TEST(PassLimits, LatencyAboveTheLimitMissesIt) {
  PassLimits limits;
  limits.max_lat = parse_latency_limit("p99:20");
  const TestSpec lat = a_spec("send", Mode::kLatency, 2, 1, 1);
  EXPECT_EQ(missed_limit(limits, lat, a_run("lat_p99_us", 25)),
            "p99 25 us, above --max-lat p99:20");
  EXPECT_EQ(missed_limit(limits, lat, a_run("lat_p99_us", 20)), "");
}

TEST(PassLimits, AggregateAndFailedRowsAreNotJudged) {
  PassLimits limits;
  limits.min_bw_gbps = 10;
  const TestSpec bw = a_spec("write", Mode::kBandwidth, 65536, 1, 1);
  BenchRun mean = a_run("bytes_per_second", 1);
  mean.run_type = BenchRun::RT_Aggregate;
  EXPECT_EQ(missed_limit(limits, bw, mean), "");
  BenchRun failed = a_run("bytes_per_second", 1);
  failed.error_occurred = true;
  EXPECT_EQ(missed_limit(limits, bw, failed), "");
  EXPECT_FALSE(judges(limits, bw, mean));
  EXPECT_FALSE(judges(limits, bw, failed));
  EXPECT_TRUE(judges(limits, bw, a_run("bytes_per_second", 1)));
  EXPECT_FALSE(judges(limits, a_spec("send", Mode::kLatency, 2, 1, 1), a_run("lat_p99_us", 1)));
}

}  // namespace
}  // namespace rdmabench
