#include "runner/run_metrics.h"

#include <string>

#include "measure/counter_metric.h"

namespace rdmabench {

namespace {

std::string host_fact(const nlohmann::json& context, const char* side, const char* key) {
  const auto s = context.find(side);
  if (s == context.end() || !s->is_object()) return "";
  const auto v = s->find(key);
  return v == s->end() ? "" : label_text(*v);
}

// A row's labels: the run's and each side's device, then its spec's (benchmark, pattern, mode,
// transport, size, each side's CQ strategy), then which repetition or statistic of them it is.
std::vector<MetricLabel> row_labels(const std::vector<MetricLabel>& run,
                                    const nlohmann::json& context, const nlohmann::json& row) {
  std::vector<MetricLabel> labels = run;
  labels.push_back({"client_device", host_fact(context, "client", "device")});
  labels.push_back({"server_device", host_fact(context, "server", "device")});
  // The spec's name (write/bw/busy/4096), not Google Benchmark's, which names the iterations
  // and the timing too: a series must not change with --iters.
  const nlohmann::json spec = row.value("rdmabench_spec", nlohmann::json::object());
  labels.push_back(
      {"benchmark", label_text(spec.value("name", row.value("name", nlohmann::json())))});
  for (const char* key : {"pattern", "mode", "transport", "size", "client_cq", "server_cq"})
    labels.push_back({key, label_text(spec.value(key, nlohmann::json()))});
  const bool aggregate = row.value("run_type", std::string()) == "aggregate";
  labels.push_back(
      {"repetition", aggregate ? "" : label_text(row.value("repetition_index", nlohmann::json()))});
  labels.push_back({"aggregate", aggregate ? label_text(row.value("aggregate_name", "")) : ""});
  return labels;
}

// Every counter of every row, one family per metric, in the order they first appear.
void add_counters(const nlohmann::json& context, const nlohmann::json& rows,
                  const std::vector<MetricLabel>& run, MetricFamilies& out) {
  for (const nlohmann::json& row : rows) {
    const std::vector<MetricLabel> labels = row_labels(run, context, row);
    for (const auto& [key, value] : row.items()) {
      if (!value.is_number()) continue;
      const auto metric = counter_metric(key);
      if (!metric) continue;  // Google Benchmark's own fields: iterations, real_time...
      MetricSample s{labels, value.get<double>() * metric->scale};
      if (metric->label) s.labels.push_back(*metric->label);
      out.add(metric->name, metric->help, std::move(s));
    }
  }
}

MetricFamily failed_rows(const nlohmann::json& context, const nlohmann::json& rows,
                         const std::vector<MetricLabel>& run) {
  MetricFamily f{"rdmabench_benchmark_failed",
                 "1 when the benchmark's run failed (its error is in the results), else 0",
                 {}};
  for (const nlohmann::json& row : rows)
    if (row.value("run_type", std::string()) != "aggregate")
      f.samples.push_back(
          {row_labels(run, context, row), row.value("error_occurred", false) ? 1.0 : 0.0});
  return f;
}

}  // namespace

std::vector<MetricFamily> run_metrics(const nlohmann::json& results, const RunOutcome& outcome) {
  const std::vector<MetricLabel> run = {{"client", outcome.client}, {"server", outcome.server}};
  MetricFamilies out;
  out.push({"rdmabench_run_exit_code",
            "the run's exit status (0: every benchmark ran and held its limits; rdmabench run "
            "--help lists the others)",
            {{run, static_cast<double>(outcome.exit_code)}}});
  out.push({"rdmabench_run_finished_timestamp_seconds",
            "when the run ended, in seconds since 1970 (an old value: the check stopped running)",
            {{run, outcome.finished_unix_s}}});
  if (outcome.limits_held)
    out.push({"rdmabench_run_limits_held",
              "1 when every judged row held --min-bw and --max-lat, 0 when one missed",
              {{run, *outcome.limits_held ? 1.0 : 0.0}}});
  if (results.is_object()) {
    const nlohmann::json context = results.value("context", nlohmann::json::object());
    const nlohmann::json rows = results.value("benchmarks", nlohmann::json::array());
    out.push(failed_rows(context, rows, run));
    add_counters(context, rows, run, out);
  }
  return std::move(out).take();
}

}  // namespace rdmabench
