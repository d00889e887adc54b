#include "mesh/mesh_report_json.h"
#include "mesh/mesh_report_text.h"
#include "mesh/reduce_report.h"

#include <gtest/gtest.h>

#include <sstream>

#include "core/error.h"
#include "mesh/local_report_ranks.h"
#include "mesh/rank_rows.h"
#include "mesh/repetitions.h"

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
  const json report =
      mesh_report_json(mesh_report({{"schedule", "shift"}}, hosts(4), bw_results(-1), {0.8}));
  ASSERT_EQ(report["benchmarks"].size(), 1u);
  const json& b = report["benchmarks"][0];
  EXPECT_EQ(b["figure"], "bytes_per_second");
  EXPECT_TRUE(b["higher_is_better"].get<bool>());
  EXPECT_EQ(b["heatmaps"], json::parse(R"([{"counter": "bytes_per_second", "higher_is_better": true,
                              "verdict": "outliers"},
                            {"counter": "client_cpu_us_per_msg", "higher_is_better": false}])"));
  EXPECT_TRUE(b["matrices"]["bytes_per_second"][1][1].is_null());
  EXPECT_EQ(b["matrices"]["bytes_per_second"][0][2], 1e8);
  EXPECT_EQ(b["matrices"]["client_cpu_us_per_msg"][2][1], 2.0);
  EXPECT_EQ(report["verdict"]["exit_code"], 0);
  EXPECT_EQ(report["context"]["schedule"], "shift");
}

TEST(MeshReport, ASlowHostIsTheVerdictAndTheExitCode) {
  const MeshReport made = mesh_report({}, hosts(4), bw_results(1), {0.8});
  const json report = mesh_report_json(made);
  EXPECT_EQ(report["verdict"]["slow_hosts"], json({1}));
  EXPECT_EQ(report["verdict"]["slow_pairs"], 6);
  EXPECT_EQ(report["verdict"]["exit_code"], static_cast<int>(ExitCode::kOutliers));
  std::ostringstream text;
  print_mesh_report(made, text);
  EXPECT_NE(text.str().find("SLOW HOST 1 h1 rxe"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("SLOW pair 0 -> 1"), std::string::npos) << text.str();
  // The median and the threshold in the matrix's own unit (Gb/s).
  EXPECT_NE(text.str().find("median 0.800, slow below 0.640 (--min-fraction 0.8)"),
            std::string::npos)
      << text.str();
}

TEST(MeshReport, AHostWhoseWireResendsIsNamedEvenWhereItsBandwidthIsFine) {
  auto results = bw_results(-1);  // every pair at full bandwidth
  for (PairResult& r : results) {
    const bool lossy = r.pair.client == 2 || r.pair.server == 2;
    r.counters["msgs"] = 1000;
    r.counters["wire_resend_episodes"] = lossy ? 50 : 1;   // 0.05 and 0.001 per message
    r.counters["wire_retransmissions"] = lossy ? 400 : 8;  // the duplicates: not judged
  }
  const MeshReport made = mesh_report({}, hosts(4), results, {0.8, 0.01});
  const json report = mesh_report_json(made);
  const json& b = report["benchmarks"][0];
  EXPECT_EQ(b["outliers"]["slow_pairs"].size(), 0u);
  EXPECT_EQ(b["wire"]["resending_pairs"].size(), 6u);
  EXPECT_EQ(b["wire"]["resending_hosts"], json({2}));
  EXPECT_EQ(b["matrices"][kResendsCounter][2][0], 0.05);
  EXPECT_EQ(b["matrices"][kResendsCounter][0][1], 0.001);
  EXPECT_EQ(b["heatmaps"][1]["counter"], kResendsCounter);
  EXPECT_EQ(report["verdict"]["resending_hosts"], json({2}));
  EXPECT_EQ(report["verdict"]["exit_code"], static_cast<int>(ExitCode::kOutliers));
  std::ostringstream text;
  print_mesh_report(made, text);
  EXPECT_NE(text.str().find("RESENDING HOST 2 h2 rxe"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("RESENDING pair 2 -> 0: 0.05 resent per message"), std::string::npos)
      << text.str();
  // Pairs whose drivers count no resends have no such matrix, and nothing is flagged.
  const json plain = mesh_report_json(mesh_report({}, hosts(4), bw_results(-1), {0.8, 0.0}));
  EXPECT_FALSE(plain["benchmarks"][0]["matrices"].contains(kResendsCounter));
  EXPECT_EQ(plain["verdict"]["resending_pairs"], 0);
}

TEST(MeshRepetitions, EachPairKeepsItsBestRunWithTheWorstAndTheSpreadBesideIt) {
  const auto bw = [](int c, int s, double v) {
    return PairResult{"write/bw/busy/65536", {c, s}, {{"bytes_per_second", v}}, "", 0, "bw"};
  };
  const auto lat = [](double p50) {
    return PairResult{"write/lat/busy/2", {0, 1}, {{"lat_p50_us", p50}}, "", 0, "lat"};
  };
  PairResult failed = bw(1, 0, 0);
  failed.counters.clear();
  failed.error = "stalled";
  failed.exit_code = 5;
  // A stall in one repetition of 0 -> 1, a failure in one of 1 -> 0, 1 -> 2 failing each time.
  PairResult failed_too = failed;
  failed_too.pair = {1, 2};
  const std::vector<PairResult> all = {bw(0, 1, 80),  bw(1, 0, 100), failed_too, lat(20),
                                       bw(0, 1, 40),  failed,        failed_too, lat(30),
                                       bw(0, 1, 100), bw(1, 0, 90),  failed_too, lat(25)};
  const std::vector<PairResult> best = best_of_repetitions(all);
  ASSERT_EQ(best.size(), 4u);
  EXPECT_EQ(best[0].pair, (MeshPair{0, 1}));
  EXPECT_EQ(best[0].counters.at("bytes_per_second"), 100);
  EXPECT_EQ(best[0].counters.at("judged_worst"), 40);
  EXPECT_DOUBLE_EQ(best[0].counters.at("judged_spread"), 0.6);
  EXPECT_EQ(best[0].counters.at("repetitions_measured"), 3);
  EXPECT_EQ(best[1].counters.at("repetitions_failed"), 1);
  EXPECT_EQ(best[1].counters.at("bytes_per_second"), 100);
  EXPECT_EQ(best[2].error, "stalled");               // failed every time
  EXPECT_EQ(best[3].counters.at("lat_p50_us"), 20);  // lower is better
  EXPECT_EQ(best[3].counters.at("judged_worst"), 30);
  // One repetition: the results as they were, nothing added.
  const std::vector<PairResult> once = {bw(0, 1, 80), bw(1, 0, 100)};
  EXPECT_EQ(best_of_repetitions(once)[0].counters.size(), 1u);
}

TEST(MeshReport, AFailedPairIsReportedWithItsExitCode) {
  auto results = bw_results(-1);
  results[0].counters.clear();
  results[0].error = "rdma_connect: timed out";
  results[0].exit_code = static_cast<int>(ExitCode::kConnection);
  const json report = mesh_report_json(mesh_report({}, hosts(4), results, {0.8}));
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
  const json report = mesh_report_json(mesh_report({}, hosts(2), results, {0.8}));
  EXPECT_EQ(report["benchmarks"][0]["figure"], "bytes_per_second");
}

// --matrices: every counter up to 64 ranks, beyond it only what the verdicts and the heatmaps
// use (a 1024-rank report of every counter would take gigabytes).
TEST(MeshMatrices, AutoKeepsEveryCounterUpTo64RanksAndTheHeatmapsBeyond) {
  EXPECT_EQ(parse_matrix_scope("auto", 64), MatrixScope::kAll);
  EXPECT_EQ(parse_matrix_scope("auto", 65), MatrixScope::kHeatmaps);
  EXPECT_EQ(parse_matrix_scope("all", 1024), MatrixScope::kAll);
  EXPECT_EQ(parse_matrix_scope("heatmaps", 4), MatrixScope::kHeatmaps);
  try {
    parse_matrix_scope("some", 4);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage);
    EXPECT_NE(std::string(e.what()).find("auto, all or heatmaps"), std::string::npos);
  }
}

TEST(MeshMatrices, APairKeepsTheHeatmapsCountersAndItsResendsPerMessage) {
  const std::map<std::string, double> run = {
      {"bytes_per_second", 1e9},    {"msgs", 1000},
      {"wire_resend_episodes", 20}, {"client_cpu_us_per_msg", 2},
      {"server_cpu_us_per_msg", 3}, {"client_dev_hw_sent_pkts", 17000},
      {"judged_spread", 0.1},       {"lat_p99_us", 5}};
  const auto all = report_counters(run, "bytes_per_second", MatrixScope::kAll);
  EXPECT_EQ(all.size(), run.size() + 1);
  EXPECT_DOUBLE_EQ(all.at(kResendsCounter), 0.02);
  const auto kept = report_counters(run, "bytes_per_second", MatrixScope::kHeatmaps);
  EXPECT_EQ(kept, (std::map<std::string, double>{{"bytes_per_second", 1e9},
                                                 {kResendsCounter, 0.02},
                                                 {"lat_p99_us", 5},
                                                 {"client_cpu_us_per_msg", 2},
                                                 {"server_cpu_us_per_msg", 3},
                                                 {"judged_spread", 0.1}}));
}

TEST(MeshMatrices, AHeatmapsReportHasNoOtherMatrices) {
  std::vector<PairResult> results = bw_results(-1);
  for (PairResult& r : results) r.counters["client_dev_hw_sent_pkts"] = 17000;
  const json report =
      mesh_report_json(mesh_report({}, hosts(4), results, {0.8}, MatrixScope::kHeatmaps));
  std::vector<std::string> names;
  for (const auto& [name, m] : report["benchmarks"][0]["matrices"].items()) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"bytes_per_second", "client_cpu_us_per_msg"}));
}

// Beyond 32 ranks the printed summary leaves the matrices to the file and stops each list of
// pairs after 20, saying how many more there are.
TEST(MeshReport, ALargeMeshPrintsNoMatrixAndAtMostTwentyPairsOfAList) {
  const int n = 40;
  std::vector<PairResult> results;
  for (int c = 0; c < n; ++c)
    for (int s = 0; s < n; ++s)
      if (c != s)
        results.push_back({"write/bw/busy/65536",
                           {c, s},
                           {{"bytes_per_second", (c == 7 || s == 7) ? 1e7 : 1e8}},
                           "",
                           0,
                           "bw"});
  std::ostringstream text;
  print_mesh_report(mesh_report({}, hosts(n), results, {0.8}), text);
  const std::string out = text.str();
  EXPECT_NE(out.find("40 x 40 pairs (the matrices are in --out's report"), std::string::npos);
  size_t listed = 0;
  for (size_t at = out.find("SLOW pair"); at != std::string::npos;
       at = out.find("SLOW pair", at + 1))
    ++listed;
  EXPECT_EQ(listed, kPrintedPairs);
  EXPECT_NE(out.find("... and 58 more (every one in --out's report)"), std::string::npos) << out;
  EXPECT_NE(out.find("SLOW HOST 7 h7"), std::string::npos);
}

// Each rank's doctor values: the host whose MTU or firmware is not the others' is named, with
// what the rest have; a key on which two hosts disagree with no majority names both.
TEST(MeshReport, NamesTheHostsSetUpDifferentlyFromTheRest) {
  json h = hosts(4);
  for (int i = 0; i < 4; ++i)
    h[i]["doctor"] = {{"port 1 MTU", i == 2 ? "1024" : "4096"},
                      {"firmware", "28.39.1002"},
                      {"PCIe link", "16.0 GT/s x16 (its maximum)"}};
  h[3]["doctor"]["firmware"] = "28.40.1000";
  const MeshReport made = mesh_report({}, h, {}, {0.8});
  const json report = mesh_report_json(made);
  const json& d = report["host_differences"];
  ASSERT_EQ(d.size(), 2u) << d.dump();
  EXPECT_EQ(d[0]["key"], "firmware");
  EXPECT_EQ(d[0]["rank"], 3);
  EXPECT_EQ(d[0]["usual"], "28.39.1002");
  EXPECT_EQ(d[1]["key"], "port 1 MTU");
  EXPECT_EQ(d[1]["rank"], 2);
  EXPECT_EQ(d[1]["hosts_with_usual"], 3);
  EXPECT_EQ(report["verdict"]["differing_hosts"], json::array({2, 3}));
  std::ostringstream text;
  print_mesh_report(made, text);
  EXPECT_NE(text.str().find("DIFFERENT HOST 2 h2 rxe: port 1 MTU 1024 where 3 others have 4096"),
            std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("2 hosts set up differently (exit 0)"), std::string::npos);

  json two = hosts(2);
  two[0]["doctor"] = {{"port 1 MTU", "1024"}};
  two[1]["doctor"] = {{"port 1 MTU", "4096"}};
  const json tie = mesh_report_json(mesh_report({}, two, {}, {0.8}))["host_differences"];
  ASSERT_EQ(tie.size(), 2u);
  EXPECT_TRUE(tie[0]["usual"].is_null());
  EXPECT_TRUE(mesh_report({}, hosts(3), {}, {0.8}).host_differences.empty());
}

namespace {
// Every ordered pair of 12 ranks in 4 racks of 3 at 1e8, with `factor` applied.
template <typename Factor>
std::vector<PairResult> racked_results(Factor factor) {
  std::vector<PairResult> r;
  for (int c = 0; c < 12; ++c)
    for (int s = 0; s < 12; ++s)
      if (c != s)
        r.push_back({"write/bw/busy/65536",
                     {c, s},
                     {{"bytes_per_second", 1e8 * factor(c, s)}},
                     "",
                     0,
                     "bw"});
  return r;
}

json reduced_with_groups(const std::vector<PairResult>& results, const MeshGroups& groups) {
  std::vector<std::vector<PairResult>> by_client(12);
  for (const PairResult& r : results) by_client[r.pair.client].push_back(r);
  std::vector<RankRows> rows;
  for (int c = 0; c < 12; ++c)
    rows.push_back(rank_rows(c, 12, benchmarks_of(results), by_client[c], MatrixScope::kAll));
  const LocalReportRanks ranks(std::move(rows));
  return mesh_report_json(reduce_mesh_report(ranks, benchmarks_of(results), {},
                                             mesh_hosts(hosts(12)), {0.8, 0.01}, &groups)
                              .report);
}
}  // namespace

TEST(MeshReport, ARackWhoseUplinkIsSlowIsNamedAsAGroupNotAsItsHosts) {
  const MeshGroups racks{{0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3}, {"r0", "r1", "r2", "r3"}};
  const auto rack = [](int rank) { return rank / 3; };
  const json uplink =
      reduced_with_groups(racked_results([&](int c, int s) {
                            return rack(c) != rack(s) && (rack(c) == 2 || rack(s) == 2) ? 0.5 : 1.0;
                          }),
                          racks);
  EXPECT_EQ(uplink["verdict"]["slow_groups"], json({"r2"}));
  EXPECT_EQ(uplink["verdict"]["slow_hosts"], json::array());
  EXPECT_EQ(uplink["verdict"]["exit_code"], static_cast<int>(ExitCode::kOutliers));
  // One slow host: named as a host; its rack's other hosts are fine across, so no group.
  const json host = reduced_with_groups(
      racked_results([](int c, int s) { return c == 4 || s == 4 ? 0.5 : 1.0; }), racks);
  EXPECT_EQ(host["verdict"]["slow_hosts"], json({4}));
  EXPECT_EQ(host["verdict"]["slow_groups"], json::array());
  // Every host of a rack slow, within it too: its hosts, not its uplink.
  const json all = reduced_with_groups(
      racked_results([&](int c, int s) { return rack(c) == 1 || rack(s) == 1 ? 0.5 : 1.0; }),
      racks);
  EXPECT_EQ(all["verdict"]["slow_hosts"], json({3, 4, 5}));
  EXPECT_EQ(all["verdict"]["slow_groups"], json::array());
}

TEST(MeshReport, ASummaryWithoutTheMatricesNamesResendingPairsAndGroups) {
  // Beyond 32 ranks rank 0 holds no matrix: the summary is printed from the verdicts alone.
  MeshReport made = mesh_report({}, hosts(4), bw_results(-1), {0.8, 0.01});
  made.benchmarks[0].matrices.clear();
  made.benchmarks[0].wire.resending.listed = {{1, 2}};
  made.verdict.slow_groups = std::set<std::string>{"rack7"};
  std::ostringstream text;
  print_mesh_report(made, text);
  EXPECT_NE(text.str().find("RESENDING pair 1 -> 2: resent more per message"), std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("SLOW GROUP rack7"), std::string::npos) << text.str();
}

// A failed pair's message is a rank's own text: the summary prints it as one line of printable
// text, whatever the rank sent (terminal escapes, a forged line).
TEST(MeshReport, AFailedPairsMessageIsPrintedAsOnePrintableLine) {
  auto results = bw_results(-1);
  results[0].counters.clear();
  results[0].error = "refused\x1b[2J\nSLOW HOST 3 forged";
  results[0].exit_code = static_cast<int>(ExitCode::kConnection);
  const MeshReport made = mesh_report({}, hosts(4), results, {0.8});
  std::ostringstream text;
  print_mesh_report(made, text);
  EXPECT_EQ(text.str().find('\x1b'), std::string::npos) << text.str();
  EXPECT_EQ(text.str().find("\nSLOW HOST 3 forged"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("FAILED pair 0 -> 1: refused"), std::string::npos) << text.str();
  // The report's file keeps the message as the rank sent it (JSON escapes it).
  EXPECT_EQ(mesh_report_json(made)["benchmarks"][0]["errors"][0]["message"], results[0].error);
}
