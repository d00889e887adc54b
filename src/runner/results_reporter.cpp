#include "runner/results_reporter.h"

#include <cmath>
#include <ctime>

#include "bench/pattern_catalogue.h"
#include "cq/strategy.h"
#include "measure/counter_catalogue.h"
#include "measure/device_counters.h"
#include "messages/spec_json.h"

namespace rdmabench {

namespace {

std::string local_time_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S%z", &tm);
  std::string out = text;
  if (out.size() > 2) out.insert(out.size() - 2, ":");  // +0000 -> +00:00, as Google Benchmark
  return out;
}

// What Google Benchmark's own JSON context says of this (the client's) machine.
nlohmann::json machine_facts(const benchmark::BenchmarkReporter::Context& c) {
  nlohmann::json caches = nlohmann::json::array();
  for (const auto& cache : c.cpu_info.caches)
    caches.push_back({{"type", cache.type},
                      {"level", cache.level},
                      {"size", cache.size},
                      {"num_sharing", cache.num_sharing}});
  return {{"num_cpus", c.cpu_info.num_cpus},
          {"mhz_per_cpu", static_cast<int64_t>(c.cpu_info.cycles_per_second / 1e6)},
          {"cpu_scaling_enabled", c.cpu_info.scaling == benchmark::CPUInfo::Scaling::ENABLED},
          {"caches", caches},
          {"load_avg", c.cpu_info.load_avg}};
}

// A counter as the JSON carries it: a count of one run as an integer (msgs: 200, not 200.0),
// anything else, and an aggregate row's statistic of a count, as a number.
nlohmann::json counter_value(const std::string& name, double value, bool one_run) {
  const CounterInfo* info = find_counter(name);
  const bool whole = value >= 0 && value < 9.0e15 && value == std::floor(value);
  if (one_run && info && info->kind == CounterKind::kCount && whole)
    return static_cast<uint64_t>(value);
  return value;
}

// The registered patterns and CQ strategies by name, in the registries' order: what a tool
// gives each one's colour and marker by, the same in every figure of every file.
nlohmann::json registry_names_json() {
  nlohmann::json patterns = nlohmann::json::array(), strategies = nlohmann::json::array();
  for (const Pattern& p : registered_patterns()) patterns.push_back(p.name());
  for (const StrategyInfo& s : registered_strategies()) strategies.push_back(s.name);
  return {{"patterns", patterns}, {"cq_strategies", strategies}};
}

}  // namespace

nlohmann::json results_spec(const TestSpec& spec) {
  nlohmann::json j = to_json(spec);
  j["name"] = spec.name();
  j["client_cq"] = spec.cq.client.text();
  j["server_cq"] = spec.cq.server.text();
  return j;
}

ResultsReporter::ResultsReporter(nlohmann::json context, const std::vector<TestSpec>& specs)
    : context_(std::move(context)) {
  for (const TestSpec& s : specs) specs_.emplace(s.name(), results_spec(s));
}

bool ResultsReporter::ReportContext(const Context& context) {
  nlohmann::json merged = {{"date", local_time_iso8601()},
                           {"executable", benchmark::BenchmarkReporter::Context::executable_name}};
  for (const auto& [key, value] : context_.items()) merged[key] = value;
  if (merged.contains("client") && merged["client"].is_object()) {
    merged["client"]["machine"] = machine_facts(context);
    merged["server"]["machine"] = nullptr;  // the same keys on both sides; the server sends none
  }
  merged["rdmabench_counters"] = counter_catalogue_json();
  merged["rdmabench_device_alarms"] = device_alarms_json();
  merged["rdmabench_registry"] = registry_names_json();
  context_ = std::move(merged);
  return true;
}

nlohmann::json ResultsReporter::row(const Run& run) const {
  nlohmann::json r = {{"name", run.benchmark_name()},
                      {"family_index", run.family_index},
                      {"per_family_instance_index", run.per_family_instance_index},
                      {"run_name", run.run_name.str()},
                      {"run_type", run.run_type == Run::RT_Iteration ? "iteration" : "aggregate"},
                      {"repetitions", run.repetitions},
                      {"repetition_index", run.repetition_index},
                      {"threads", run.threads}};
  if (run.run_type == Run::RT_Aggregate) {
    r["aggregate_name"] = run.aggregate_name;
    r["aggregate_unit"] = run.aggregate_unit == benchmark::kPercentage ? "percentage" : "time";
  }
  if (run.error_occurred) {
    r["error_occurred"] = true;
    r["error_message"] = run.error_message;
  }
  r["iterations"] = run.iterations;
  r["real_time"] = run.GetAdjustedRealTime();
  r["cpu_time"] = run.GetAdjustedCPUTime();
  r["time_unit"] = benchmark::GetTimeUnitString(run.time_unit);
  const bool one_run = run.run_type == Run::RT_Iteration;
  // A figure that is no number (an aggregate's cv of figures that were all 0) is left out:
  // no null or NaN stands for it.
  for (const auto& [name, counter] : run.counters)
    if (std::isfinite(counter.value)) r[name] = counter_value(name, counter.value, one_run);
  if (!run.report_label.empty()) r["label"] = run.report_label;
  const auto spec = specs_.find(run.run_name.function_name);
  if (spec != specs_.end()) r["rdmabench_spec"] = spec->second;
  return r;
}

void ResultsReporter::ReportRuns(const std::vector<Run>& runs) {
  for (const Run& run : runs) rows_.push_back(row(run));
}

nlohmann::json ResultsReporter::document() const {
  return {{"context", context_}, {"benchmarks", rows_}};
}

void ResultsReporter::Finalize() {
  GetOutputStream() << document().dump(2) << "\n" << std::flush;
}

}  // namespace rdmabench
