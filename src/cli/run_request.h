// run's command line made into a RunPlan: the options given (or the profile's) turned into the
// suite's specs and settings, every one checked before a device or the server is touched.
#pragma once

#include <optional>

#include "runner/run_plan.h"

namespace rdmabench {

// Parse and validate; nullopt after --help (printed).
std::optional<RunPlan> parse_run_request(int argc, char** argv);

}  // namespace rdmabench
