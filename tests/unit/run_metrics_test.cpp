// `run --metrics`: the results document and the run's outcome as metric families
// (runner/run_metrics.h).
#include "runner/run_metrics.h"

#include <gtest/gtest.h>

#include "core/openmetrics.h"
#include "metric_lookup.h"

namespace rdmabench {
namespace {

using testing::family_named;
using testing::find_family;
using testing::label_value;

nlohmann::json results_with(nlohmann::json rows) {
  return {{"context",
           {{"client", {{"host", "c1"}, {"device", "mlx5_0"}}},
            {"server", {{"host", "s1"}, {"device", "mlx5_1"}}}}},
          {"benchmarks", std::move(rows)}};
}

nlohmann::json a_row(const char* name, int repetition, const nlohmann::json& counters) {
  nlohmann::json row = {{"name", name},
                        {"run_type", "iteration"},
                        {"repetition_index", repetition},
                        {"iterations", 1},
                        {"real_time", 12.5},
                        {"rdmabench_spec",
                         {{"name", std::string(name).substr(0, std::string(name).find("/iter"))},
                          {"pattern", "write"},
                          {"mode", "bw"},
                          {"transport", "rc"},
                          {"size", 65536},
                          {"client_cq", "busy"},
                          {"server_cq", "event"}}}};
  if (counters.is_object()) row.update(counters);
  return row;
}

TEST(RunMetrics, OneSeriesPerRowAndCounterInBaseUnits) {
  const auto rows =
      nlohmann::json::array({a_row("write/bw/busy/65536/iterations:100/manual_time", 0,
                                   {{"bytes_per_second", 2.5e9}, {"lat_p50_us", 3.5}}),
                             a_row("write/bw/busy/65536/iterations:100/manual_time", 1,
                                   {{"bytes_per_second", 2.4e9}, {"qp3_msgs", 100}})});
  const auto all = run_metrics(results_with(rows), {"c1", "10.0.0.2", 0, std::nullopt, 1e9});
  const MetricFamily* bw = find_family(all, "rdmabench_bytes_per_second");
  ASSERT_TRUE(bw);
  ASSERT_EQ(bw->samples.size(), 2u);
  EXPECT_DOUBLE_EQ(bw->samples[0].value, 2.5e9);
  EXPECT_EQ(label_value(bw->samples[0], "repetition"), "0");
  EXPECT_EQ(label_value(bw->samples[1], "repetition"), "1");
  EXPECT_EQ(label_value(bw->samples[0], "benchmark"), "write/bw/busy/65536");
  EXPECT_EQ(label_value(bw->samples[0], "size"), "65536");
  EXPECT_EQ(label_value(bw->samples[0], "client_cq"), "busy");
  EXPECT_EQ(label_value(bw->samples[0], "server_cq"), "event");
  EXPECT_EQ(label_value(bw->samples[0], "client_device"), "mlx5_0");
  EXPECT_EQ(label_value(bw->samples[0], "server_device"), "mlx5_1");
  EXPECT_EQ(label_value(bw->samples[0], "server"), "10.0.0.2");  // as the command line named it
  const MetricFamily* p50 = find_family(all, "rdmabench_lat_p50_seconds");
  ASSERT_TRUE(p50 && p50->samples.size() == 1u);
  EXPECT_DOUBLE_EQ(p50->samples[0].value, 3.5e-6);
  const MetricFamily* qp = find_family(all, "rdmabench_qp_msgs");
  ASSERT_TRUE(qp && qp->samples.size() == 1u);
  EXPECT_EQ(label_value(qp->samples[0], "qp"), "3");
  EXPECT_FALSE(find_family(all, "rdmabench_real_time"));  // Google Benchmark's field, not a counter
  EXPECT_NO_THROW(openmetrics_text(all));                 // every series distinct
}

TEST(RunMetrics, TheOutcomeAsGauges) {
  const auto rows = nlohmann::json::array(
      {a_row("write/bw/busy/65536", 0, {}), a_row("read/bw/busy/65536", 0, {})});
  auto broken = rows;
  broken[1]["error_occurred"] = true;
  const auto all = run_metrics(results_with(broken), {"c1", "s", 5, false, 1.7e9});
  const MetricFamily* code = find_family(all, "rdmabench_run_exit_code");
  ASSERT_TRUE(code && code->samples.size() == 1u);
  EXPECT_DOUBLE_EQ(code->samples[0].value, 5);
  const MetricFamily* held = find_family(all, "rdmabench_run_limits_held");
  ASSERT_TRUE(held && held->samples.size() == 1u);
  EXPECT_DOUBLE_EQ(held->samples[0].value, 0);
  const MetricFamily* failed = find_family(all, "rdmabench_benchmark_failed");
  ASSERT_TRUE(failed && failed->samples.size() == 2u);
  EXPECT_DOUBLE_EQ(failed->samples[0].value, 0);
  EXPECT_DOUBLE_EQ(failed->samples[1].value, 1);
  EXPECT_EQ(label_value(failed->samples[1], "benchmark"), "read/bw/busy/65536");
  const MetricFamily* at = find_family(all, "rdmabench_run_finished_timestamp_seconds");
  ASSERT_TRUE(at && at->samples.size() == 1u);
  EXPECT_DOUBLE_EQ(at->samples[0].value, 1.7e9);
}

TEST(RunMetrics, AnAggregateRowIsLabelledByItsStatistic) {
  auto row = a_row("write/bw/busy/65536", 0, {{"bytes_per_second", 2e9}});
  row["run_type"] = "aggregate";
  row["aggregate_name"] = "median";
  const auto all = run_metrics(results_with({row}), {"c1", "s", 0, std::nullopt, 0});
  const MetricFamily* bw = find_family(all, "rdmabench_bytes_per_second");
  ASSERT_TRUE(bw && bw->samples.size() == 1u);
  EXPECT_EQ(label_value(bw->samples[0], "aggregate"), "median");
  EXPECT_EQ(label_value(bw->samples[0], "repetition"), "");
  EXPECT_TRUE(find_family(all, "rdmabench_benchmark_failed")->samples.empty());
  EXPECT_FALSE(find_family(all, "rdmabench_run_limits_held"));  // no limit given
}

// The run ended before any benchmark (no server): its exit code alone.
TEST(RunMetrics, ARunThatNeverStartedStillSaysHowItEnded) {
  const auto all = run_metrics(nullptr, {"c1", "10.0.0.9", 4, std::nullopt, 1.7e9});
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].name, "rdmabench_run_exit_code");
  EXPECT_DOUBLE_EQ(all[0].samples.at(0).value, 4);
  EXPECT_EQ(label_value(all[0].samples[0], "server"), "10.0.0.9");
  EXPECT_EQ(label_value(all[0].samples[0], "client"), "c1");
}

}  // namespace
}  // namespace rdmabench
