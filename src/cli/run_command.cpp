// `rdmabench run HOST`: the client's command line (cli/run_request.h) run by the runner
// (runner/run_plan.h), or with --dry-run (or --benchmark_list_tests) the plan alone.
#include "cli/run_command.h"

#include <iostream>

#include "cli/run_request.h"
#include "runner/suite_preview.h"

namespace rdmabench {

int run_run_command(int argc, char** argv) {
  std::optional<RunPlan> plan = parse_run_request(argc, argv);
  if (!plan) return 0;
  const GoogleBenchmarkFlags flags = google_benchmark_flags(plan->benchmark_args);
  if (flags.list_tests) {
    std::cout << suite_test_list(plan->suite, flags);
    return 0;
  }
  if (plan->dry_run) {
    std::cout << suite_preview(plan->suite, flags);
    return 0;
  }
  return run_benchmarks(std::move(*plan));
}

}  // namespace rdmabench
