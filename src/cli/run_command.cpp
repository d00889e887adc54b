// `rdmabench run HOST`: the client's command line (cli/run_request.h) run by the runner
// (runner/run_plan.h).
#include "cli/run_command.h"

#include "cli/run_request.h"

namespace rdmabench {

int run_run_command(int argc, char** argv) {
  std::optional<RunPlan> plan = parse_run_request(argc, argv);
  return plan ? run_benchmarks(std::move(*plan)) : 0;
}

}  // namespace rdmabench
