// run's option schema: every option, its group, help and default (the help is --help's text).
#pragma once

#include <cxxopts.hpp>

namespace rdmabench {

cxxopts::Options run_options();

// The groups --help shows (not the testing-only one).
inline const std::vector<std::string> kRunHelpGroups = {
    "What to run", "Scale out and queues", "Connection", "Output", "Pass or fail (health checks)"};

}  // namespace rdmabench
