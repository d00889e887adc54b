// Every parameter of a run as given or defaulted, for the results' context
// (context.rdmabench_params).
#pragma once

#include <cxxopts.hpp>
#include <nlohmann/json.hpp>

#include "cli/run_profile.h"
#include "runner/pass_limits.h"
#include "runner/suite_options.h"
#include "spec/benchmark_matrix.h"

namespace rdmabench {

nlohmann::json params_of(const cxxopts::ParseResult& args, const WhatToRun& what,
                         const SuiteOptions& so, const PassLimits& limits);

}  // namespace rdmabench
