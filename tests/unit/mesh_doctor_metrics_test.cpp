// The mesh's and doctor's --metrics (mesh/mesh_metrics.h, host/doctor_metrics.h).
#include <gtest/gtest.h>

#include "core/openmetrics.h"
#include "host/doctor_metrics.h"
#include "mesh/mesh_metrics.h"
#include "metric_lookup.h"

namespace rdmabench {
namespace {

using testing::family_named;
using testing::find_family;
using testing::label_value;

MeshReport a_mesh_report() {
  nlohmann::json hosts = nlohmann::json::array();
  for (int r = 0; r < 4; ++r)
    hosts.push_back({{"rank", r}, {"hostname", "h" + std::to_string(r)}, {"device", "rxe0"}});
  MeshReport report;
  report.context = {{"ranks", 4}};
  report.hosts = mesh_hosts(hosts);
  MeshBenchmark bw;
  bw.name = "send/bw/event/65536";
  bw.figure = "bytes_per_second";
  bw.outliers = {0.8, 3e7, 2.4e7, {{{2, 0}, {2, 1}, {2, 3}}, 0, {2}, {}, {2}, std::nullopt}};
  MeshBenchmark lat;
  lat.name = "send/lat/event/2";
  lat.figure = "lat_p50_us";
  lat.higher_is_better = false;
  lat.errors = {{1, 3, "timeout", 5}};
  lat.errors_not_listed = 2;
  lat.outliers.median = 150.0;
  lat.outliers.threshold = 187.5;
  report.benchmarks = {bw, lat};
  report.verdict.slow_hosts = {2};
  report.verdict.slow_pairs = 3;
  report.verdict.failed_pairs = 3;
  report.verdict.differing_hosts = {1};
  report.verdict.exit_code = 7;
  return report;
}

// A traffic mesh of the same four hosts: host 2's best round is slow.
TrafficReport a_traffic_report() {
  const TrafficPlan plan = TrafficPlan::make(TrafficKind::kIncast, 4, 0);
  TrafficReport report{{}, a_mesh_report().hosts, traffic_facts(plan, 1, 1, 1.0, 0.8, 12), {}, {}};
  for (int r = 0; r < 4; ++r) {
    HostLoad load;
    load.rank = r;
    load.best = r == 2 ? 1e7 : 5e7;
    load.worst = 1e6 * (r + 1);
    report.verdict.hosts.push_back(load);
  }
  report.verdict.slow_hosts = {2};
  report.verdict.exit_code = 7;
  return report;
}

TEST(MeshMetrics, TheVerdictEachHostsFlagsAndEachBenchmarksMedian) {
  const MeshReport report = a_mesh_report();
  const auto all = mesh_metrics(&report, 7, 1.7e9);
  EXPECT_DOUBLE_EQ(family_named(all, "rdmabench_mesh_exit_code").samples.at(0).value, 7);
  EXPECT_DOUBLE_EQ(family_named(all, "rdmabench_mesh_ranks").samples.at(0).value, 4);
  EXPECT_DOUBLE_EQ(family_named(all, "rdmabench_mesh_slow_pairs").samples.at(0).value, 3);
  EXPECT_DOUBLE_EQ(family_named(all, "rdmabench_mesh_failed_pairs").samples.at(0).value, 3);
  const MetricFamily& slow = family_named(all, "rdmabench_mesh_host_slow");
  ASSERT_EQ(slow.samples.size(), 4u);
  for (const MetricSample& s : slow.samples)
    EXPECT_DOUBLE_EQ(s.value, label_value(s, "rank") == "2" ? 1 : 0) << label_value(s, "rank");
  EXPECT_EQ(label_value(slow.samples[2], "hostname"), "h2");
  const MetricFamily& differs = family_named(all, "rdmabench_mesh_host_differs");
  ASSERT_EQ(differs.samples.size(), 4u);
  EXPECT_DOUBLE_EQ(differs.samples[1].value, 1);
  EXPECT_DOUBLE_EQ(differs.samples[0].value, 0);
  const MetricFamily& bw = family_named(all, "rdmabench_mesh_median_bytes_per_second");
  ASSERT_EQ(bw.samples.size(), 1u);
  EXPECT_DOUBLE_EQ(bw.samples[0].value, 3e7);
  EXPECT_DOUBLE_EQ(
      family_named(all, "rdmabench_mesh_slow_threshold_bytes_per_second").samples.at(0).value,
      2.4e7);
  const MetricFamily& lat = family_named(all, "rdmabench_mesh_median_lat_p50_seconds");
  ASSERT_EQ(lat.samples.size(), 1u);
  EXPECT_DOUBLE_EQ(lat.samples[0].value, 150e-6);
  const MetricFamily& per = family_named(all, "rdmabench_mesh_benchmark_slow_pairs");
  ASSERT_EQ(per.samples.size(), 2u);
  EXPECT_DOUBLE_EQ(per.samples[0].value, 3);
  EXPECT_DOUBLE_EQ(per.samples[1].value, 0);
  const MetricFamily& failed = family_named(all, "rdmabench_mesh_benchmark_failed_pairs");
  ASSERT_EQ(failed.samples.size(), 2u);
  EXPECT_DOUBLE_EQ(failed.samples[1].value, 3);  // one listed, two not
  EXPECT_NO_THROW(openmetrics_text(all));
}

TEST(MeshMetrics, AMeshThatEndedEarlySaysHowItEnded) {
  const auto all = mesh_metrics(nullptr, 4, 1.7e9);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_DOUBLE_EQ(family_named(all, "rdmabench_mesh_exit_code").samples.at(0).value, 4);
}

TEST(MeshMetrics, ATrafficMeshGivesEachHostsBestAndWorstRound) {
  const TrafficReport report = a_traffic_report();
  const auto all = traffic_metrics(&report, 7, 1.7e9);
  const MetricFamily& best = family_named(all, "rdmabench_mesh_traffic_host_best_bytes_per_second");
  ASSERT_EQ(best.samples.size(), 4u);
  EXPECT_DOUBLE_EQ(best.samples[2].value, 1e7);
  EXPECT_EQ(label_value(best.samples[2], "hostname"), "h2");
  EXPECT_EQ(label_value(best.samples[2], "pattern"), "incast");
  const MetricFamily& worst =
      family_named(all, "rdmabench_mesh_traffic_host_worst_bytes_per_second");
  EXPECT_DOUBLE_EQ(worst.samples[3].value, 4e6);
  EXPECT_EQ(family_named(all, "rdmabench_mesh_host_slow").samples[2].value, 1);
  const MeshReport pairs = a_mesh_report();
  EXPECT_FALSE(
      find_family(mesh_metrics(&pairs, 7, 0), "rdmabench_mesh_traffic_host_best_bytes_per_second"))
      << "a pairs mesh has no traffic gauges";
  EXPECT_NO_THROW(openmetrics_text(all));
}

TEST(DoctorMetrics, EachChecksLevelTheComparedFactsAndTheExitStatus) {
  const std::vector<Finding> findings = {
      {Level::kOk, "mlx5_0 port 1", "state", "ACTIVE", "", "", false},
      {Level::kWarn, "mlx5_0 port 1", "MTU", "1024 of 4096", "raise it", "1024", true},
      {Level::kFail, "host", "memlock", "64 KiB", "raise it", "", false},
      {Level::kWarn, "host", "memlock", "again", "", "", false}};
  const auto all = doctor_metrics(findings, 11, "node7");
  EXPECT_DOUBLE_EQ(family_named(all, "rdmabench_doctor_exit_code").samples.at(0).value, 11);
  const MetricFamily& level = family_named(all, "rdmabench_doctor_finding_level");
  ASSERT_EQ(level.samples.size(), 3u);
  EXPECT_DOUBLE_EQ(level.samples[0].value, 0);
  EXPECT_DOUBLE_EQ(level.samples[1].value, 1);
  EXPECT_DOUBLE_EQ(level.samples[2].value, 2);  // the worst of memlock's two
  EXPECT_EQ(label_value(level.samples[1], "check"), "MTU");
  EXPECT_EQ(label_value(level.samples[1], "host"), "node7");
  const MetricFamily& fact = family_named(all, "rdmabench_doctor_fact_info");
  ASSERT_EQ(fact.samples.size(), 1u);
  EXPECT_EQ(label_value(fact.samples[0], "value"), "1024");
  EXPECT_NO_THROW(openmetrics_text(all));
}

}  // namespace
}  // namespace rdmabench
