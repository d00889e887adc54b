#include "mesh/mesh_report.h"

#include <gtest/gtest.h>

#include <sstream>

#include "core/error.h"

using namespace rdmabench;
using nlohmann::json;

namespace {
json hosts(int n) {
  json h = json::array();
  for (int i = 0; i < n; ++i)
    h.push_back({{"rank", i}, {"hostname", "h" + std::to_string(i)}, {"device", "rxe"}});
  return h;
}

// Every ordered pair of a 4-host mesh at `bw`, but pairs touching `slow` at a tenth.
std::vector<PairResult> bw_results(int slow) {
  std::vector<PairResult> r;
  for (int c = 0; c < 4; ++c)
    for (int s = 0; s < 4; ++s)
      if (c != s) {
        const double bw = (c == slow || s == slow) ? 1e7 : 1e8;
        r.push_back({"write/bw/busy/65536",
                     {c, s},
                     {{"bytes_per_second", bw}, {"client_cpu_us_per_msg", 2.0}},
                     "",
                     0,
                     "bw"});
      }
  return r;
}
}  // namespace

TEST(MeshReport, MatricesHoldEveryCounterByClientAndServer) {
  const json report = mesh_report({{"schedule", "shift"}}, hosts(4), bw_results(-1), 0.8);
  ASSERT_EQ(report["benchmarks"].size(), 1u);
  const json& b = report["benchmarks"][0];
  EXPECT_EQ(b["figure"], "bytes_per_second");
  EXPECT_TRUE(b["higher_is_better"].get<bool>());
  EXPECT_EQ(b["heatmaps"],
            json::parse(R"([{"counter": "bytes_per_second", "higher_is_better": true},
                            {"counter": "client_cpu_us_per_msg", "higher_is_better": false}])"));
  EXPECT_TRUE(b["matrices"]["bytes_per_second"][1][1].is_null());
  EXPECT_EQ(b["matrices"]["bytes_per_second"][0][2], 1e8);
  EXPECT_EQ(b["matrices"]["client_cpu_us_per_msg"][2][1], 2.0);
  EXPECT_EQ(report["verdict"]["exit_code"], 0);
  EXPECT_EQ(report["context"]["schedule"], "shift");
}

TEST(MeshReport, ASlowHostIsTheVerdictAndTheExitCode) {
  const json report = mesh_report({}, hosts(4), bw_results(1), 0.8);
  EXPECT_EQ(report["verdict"]["slow_hosts"], json({1}));
  EXPECT_EQ(report["verdict"]["slow_pairs"], 6);
  EXPECT_EQ(report["verdict"]["exit_code"], static_cast<int>(ExitCode::kOutliers));
  std::ostringstream text;
  print_mesh_report(report, text);
  EXPECT_NE(text.str().find("SLOW HOST 1 h1 rxe"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("SLOW pair 0 -> 1"), std::string::npos) << text.str();
  // The median and the threshold in the matrix's own unit (Gb/s).
  EXPECT_NE(text.str().find("median 0.800, slow below 0.640 (--min-fraction 0.8)"),
            std::string::npos)
      << text.str();
}

TEST(MeshReport, AFailedPairIsReportedWithItsExitCode) {
  auto results = bw_results(-1);
  results[0].counters.clear();
  results[0].error = "rdma_connect: timed out";
  results[0].exit_code = static_cast<int>(ExitCode::kConnection);
  const json report = mesh_report({}, hosts(4), results, 0.8);
  EXPECT_EQ(report["benchmarks"][0]["errors"].size(), 1u);
  EXPECT_TRUE(report["benchmarks"][0]["matrices"]["bytes_per_second"][0][1].is_null());
  EXPECT_EQ(report["verdict"]["failed_pairs"], 1);
  EXPECT_EQ(report["verdict"]["exit_code"], static_cast<int>(ExitCode::kConnection));
}

TEST(MeshReport, LatencyIsJudgedOnItsMedianLowerBeingBetter) {
  EXPECT_EQ(judged_figure("lat").counter, "lat_p50_us");
  EXPECT_FALSE(judged_figure("lat").higher_is_better);
  EXPECT_EQ(judged_figure("bw").counter, "bytes_per_second");
}

// The mode comes from the spec, not from the name: a name with "/lat/" in another place is
// judged by what the pair really ran.
TEST(MeshReport, ABenchmarkIsJudgedByItsModeNotItsName) {
  std::vector<PairResult> results;
  for (int c = 0; c < 2; ++c)
    results.push_back({"renamed/lat/x", {c, 1 - c}, {{"bytes_per_second", 1e8}}, "", 0, "bw"});
  const json report = mesh_report({}, hosts(2), results, 0.8);
  EXPECT_EQ(report["benchmarks"][0]["figure"], "bytes_per_second");
}

TEST(MeshReport, PairResultsSurviveTheirJsonTrip) {
  const PairResult ok{"write/bw/busy/65536", {2, 0}, {{"bytes_per_second", 5.0}}, "", 0, "bw"};
  const PairResult failed{"write/lat/busy/2", {0, 1}, {}, "timed out", 5, "lat"};
  for (const PairResult& r : {ok, failed}) {
    const PairResult back = PairResult::from_json(json::parse(r.to_json().dump()));
    EXPECT_EQ(back.benchmark, r.benchmark);
    EXPECT_EQ(back.pair, r.pair);
    EXPECT_EQ(back.counters, r.counters);
    EXPECT_EQ(back.error, r.error);
    EXPECT_EQ(back.exit_code, r.exit_code);
    EXPECT_EQ(back.mode, r.mode);
  }
}
