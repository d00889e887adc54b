// `rdmabench run --metrics FILE`: the run's results (the --out document, results_reporter.h)
// as metrics for a monitoring system (core/openmetrics.h). One series per row and counter,
// labelled with the row's spec and the two hosts; the run's outcome as gauges: its exit code,
// each row's failure, and whether the --min-bw/--max-lat limits held.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/openmetrics.h"

namespace rdmabench {

struct RunOutcome {
  std::string client;  // this host's name
  std::string server;  // HOST as the command line gave it
  int exit_code = 0;
  std::optional<bool> limits_held;  // nullopt: no limit was given
  double finished_unix_s = 0;       // when the run ended (seconds since 1970)
};

// `results`: {"context": ..., "benchmarks": [rows]} as ResultsReporter makes it; null when the
// run ended before any benchmark (the server unreachable, a refused option): the outcome alone.
std::vector<MetricFamily> run_metrics(const nlohmann::json& results, const RunOutcome& outcome);

}  // namespace rdmabench
