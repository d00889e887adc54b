// The --out file's rows: what a figure that is no number becomes.
#include "runner/results_reporter.h"

#include <gtest/gtest.h>

#include <limits>

namespace rdmabench {
namespace {

using BenchRun = benchmark::BenchmarkReporter::Run;

// The cv of figures that were all 0 is 0/0, NaN: the file held null for it (issue 67). It is
// left out of the row, as a figure nothing measured; the figures that are numbers stay.
TEST(ResultsReporter, AFigureThatIsNoNumberIsLeftOutOfTheRow) {
  BenchRun cv;
  cv.run_type = BenchRun::RT_Aggregate;
  cv.aggregate_name = "cv";
  cv.counters["msgs"] = benchmark::Counter(0.01);
  cv.counters["server_cpu_us_per_msg"] =
      benchmark::Counter(std::numeric_limits<double>::quiet_NaN());
  cv.counters["client_vcsw_per_msg"] = benchmark::Counter(std::numeric_limits<double>::infinity());
  ResultsReporter reporter(nlohmann::json::object(), {});
  reporter.ReportRuns({cv});
  const nlohmann::json row = reporter.document().at("benchmarks").at(0);
  EXPECT_EQ(row.at("msgs"), 0.01);
  EXPECT_FALSE(row.contains("server_cpu_us_per_msg")) << row.dump();
  EXPECT_FALSE(row.contains("client_vcsw_per_msg")) << row.dump();
}

}  // namespace
}  // namespace rdmabench
