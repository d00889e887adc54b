// What `rdmabench run` was asked for, parsed and checked (nothing has touched a device yet),
// and running it: the command line builds the plan, the runner does the rest.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "runner/benchmark_suite.h"
#include "runner/figure_reporter.h"
#include "runner/pass_limits.h"

namespace rdmabench {

struct RunPlan {
  SuiteOptions suite;
  std::optional<Bootstrap> cm;             // --cm rdmacm or oob; none: auto
  ClockChoice clock = ClockChoice::kAuto;  // --clock: what lat samples are read with
  // What on the command line only the out-of-band bootstrap honours, and why (--cm auto then
  // picks it, with this as its reason): "--ib-port given (...)"; empty when nothing.
  std::string oob_only;
  std::string out_file;                     // --out (empty: none)
  std::string metrics_file;                 // --metrics (empty: none)
  bool json_stdout = false;                 // --json: results to standard output, text to stderr
  std::optional<OutputFigure> output;       // --output: one number per row to standard output
  bool dry_run = false;                     // --dry-run: the plan alone (runner/suite_preview.h)
  PassLimits limits;                        // --min-bw, --max-lat
  nlohmann::json params;                    // every parameter, for the context
  std::vector<std::string> benchmark_args;  // --benchmark_* flags, for Google Benchmark
};

// Probes this host (clock, bootstrap, device limits), connects, prints the banner and the
// table, writes --out, and returns the worst failure as the exit code.
int run_benchmarks(RunPlan plan);

}  // namespace rdmabench
