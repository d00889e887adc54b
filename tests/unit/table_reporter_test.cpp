// The console table: what each row counts, and what paced rows show.
#include "runner/table_reporter.h"

#include <gtest/gtest.h>

#include <limits>

#include "spec_fixture.h"

namespace rdmabench {
namespace {

using BenchRun = benchmark::BenchmarkReporter::Run;

BenchRun a_run(const std::map<std::string, double>& counters, int64_t iterations = 1) {
  BenchRun run;
  run.run_type = BenchRun::RT_Iteration;
  run.iterations = iterations;
  for (const auto& [name, value] : counters) run.counters[name] = benchmark::Counter(value);
  return run;
}

// The row's second column.
std::string count_of(const std::string& row) {
  std::istringstream in(row);
  std::string size, count;
  in >> size >> count;
  return count;
}

TEST(TableReporter, WithReportIntervalsABandwidthTableEndsWithTheBestIntervalsPeak) {
  const TestSpec spec = a_spec("write", Mode::kBandwidth, 65536, 1, 1);
  EXPECT_EQ(table_header(spec).find("BW peak"), std::string::npos);
  EXPECT_NE(table_header(spec, true).find("BW peak[MiB/s]"), std::string::npos);
  const BenchRun measured = a_run({{"msgs", 10}, {"bw_peak_bytes_per_second", 3 << 20}});
  const std::string row = table_row(spec, measured, true);
  EXPECT_EQ(row.substr(row.find_last_not_of(" \n") - 3, 4), "3.00") << row;
  // No interval ended (a run shorter than --report-every): nothing measured, so no 0.
  const std::string short_run = table_row(spec, a_run({{"msgs", 10}}), true);
  EXPECT_EQ(short_run[short_run.find_last_not_of(" \n")], '-') << short_run;
  EXPECT_EQ(table_row(spec, measured).find("3.00"), std::string::npos);  // without the column
  const TestSpec lat = a_spec("write", Mode::kLatency, 2, 1, 1);
  EXPECT_EQ(table_header(lat, true).find("BW peak"), std::string::npos);
}

TEST(TableReporter, BandwidthRowShowsTheMessagesCountedNotGoogleBenchmarksOneIteration) {
  const TestSpec spec = a_spec("write", Mode::kBandwidth, 65536, 1, 1);
  const std::string row = table_row(spec, a_run({{"msgs", 48213}, {"bytes_per_second", 1 << 20}}));
  EXPECT_EQ(count_of(row), "48213");
  EXPECT_NE(row.find("1.00"), std::string::npos) << row;  // 1 MiB/s
  EXPECT_NE(table_header(spec).find("#msgs"), std::string::npos);
}

TEST(TableReporter, LatencyRowCountsRoundTripsWhereEachIsTwoMessages) {
  const TestSpec send = a_spec("send", Mode::kLatency, 2, 1, 1);
  EXPECT_EQ(count_of(table_row(send, a_run({{"msgs", 2000}}))), "1000");
  const TestSpec read = a_spec("read", Mode::kLatency, 2, 1, 1);  // a read is one message
  EXPECT_EQ(count_of(table_row(read, a_run({{"msgs", 2000}}))), "2000");
}

TEST(TableReporter, AggregateRowNamesItsStatistic) {
  BenchRun run = a_run({{"msgs", 10}});
  run.run_type = BenchRun::RT_Aggregate;
  run.aggregate_name = "median";
  EXPECT_EQ(count_of(table_row(a_spec(), run)), "median");
}

TEST(TableReporter, PacedLatencyRowShowsOfferedAndAchievedRate) {
  TestSpec spec = a_spec("send", Mode::kLatency, 2, 1, 1);
  spec.rate = 5000;
  const std::string header = table_header(spec);
  EXPECT_NE(header.find("offered[/s]"), std::string::npos) << header;
  EXPECT_NE(header.find("achieved[/s]"), std::string::npos) << header;
  const std::string row =
      table_row(spec, a_run({{"msgs", 20}, {"offered_rate", 5000}, {"achieved_rate", 3712.4}}));
  EXPECT_NE(row.find(" 5000 "), std::string::npos) << row;
  EXPECT_NE(row.find(" 3712\n"), std::string::npos) << row;
}

TEST(TableReporter, BackToBackLatencyHasNoRateColumns) {
  const TestSpec spec = a_spec("send", Mode::kLatency, 2, 1, 1);
  EXPECT_EQ(table_header(spec).find("offered"), std::string::npos);
}

TEST(TableReporter, HeaderSaysWhetherTheFigureIsOneDirectionOrTheSumOfBoth) {
  TestSpec spec = a_spec("write", Mode::kBandwidth, 65536, 1, 1);
  EXPECT_NE(table_header(spec).find("(one direction"), std::string::npos);
  spec.bidir = true;
  EXPECT_NE(table_header(spec).find("each figure is their sum"), std::string::npos);
}

TEST(TableReporter, ARowWhoseWireRetransmittedIsFlaggedWithTheCounts) {
  const TestSpec spec = a_spec("write", Mode::kBandwidth, 65536, 1, 1);
  const std::string clean =
      table_row(spec, a_run({{"msgs", 10}, {"client_dev_hw_sent_pkts", 160}}));
  EXPECT_EQ(clean.find("wire saw"), std::string::npos) << clean;
  const std::string lossy = table_row(
      spec,
      a_run({{"msgs", 10},
             {"client_dev_hw_rcvd_seq_err", 2},
             {"server_dev_hw_out_of_seq_request", 5},
             {"server_dev_hw_out_of_seq_request_per_msg", 0.5},
             {"client_dev_hw_np_cnp_sent", 7}}));  // congestion: shown in the row, not flagged
  EXPECT_NE(lossy.find("^ the wire saw (port-wide): sequence 7 (client hw_rcvd_seq_err 2, server "
                       "hw_out_of_seq_request 5)\n"),
            std::string::npos)
      << lossy;
  EXPECT_EQ(lossy.find("congestion"), std::string::npos) << lossy;
}

TEST(TableReporter, ErrorRowCarriesTheMessage) {
  BenchRun run = a_run({});
  run.error_occurred = true;
  run.error_message = "server gone";
  EXPECT_NE(table_row(a_spec(), run).find("ERROR: server gone"), std::string::npos);
  // Its count is none, not 0 (a timed window that counted nothing printed "0" beside it).
  EXPECT_EQ(count_of(table_row(a_spec(), run)), "-");
}

// The cv of figures that were all 0 is 0/0: Google Benchmark hands it over as NaN, and the
// table printed "-nan" in every such column (issue 67). A figure that is no number is "-".
TEST(TableReporter, AFigureThatIsNoNumberIsADashNeverNan) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const Mode mode : {Mode::kBandwidth, Mode::kLatency}) {
    BenchRun cv = a_run({{"msgs", 0.01},
                         {"bytes_per_second", 0.02},
                         {"msgs_per_second", 0.02},
                         {"lat_p50_us", 0.03},
                         {"client_cpu_us_per_msg", 0.004},
                         {"server_cpu_us_per_msg", nan},
                         {"client_vcsw_per_msg", nan}});
    cv.run_type = BenchRun::RT_Aggregate;
    cv.aggregate_name = "cv";
    const std::string row = table_row(a_spec("write", mode, 64, 1, 1), cv, true);
    EXPECT_EQ(row.find("nan"), std::string::npos) << row;
    EXPECT_NE(row.find("        - "), std::string::npos) << row;
  }
}

}  // namespace
}  // namespace rdmabench
