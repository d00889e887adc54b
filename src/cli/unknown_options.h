// What a command does with the arguments its own options did not take, before anything touches
// a device or the network: for run, Google Benchmark's --benchmark_* flags pass on; anything
// else is a usage error that names the argument and what to write instead (perftest's flags
// included).
#pragma once

#include <string>
#include <vector>

#include <cxxopts.hpp>

namespace rdmabench {

struct ArgumentRules {
  std::string command = {};      // as in "see rdmabench COMMAND --help"
  std::string host = {};         // the HOST taken (run), or "" for a command of options only
  bool benchmark_flags = false;  // --benchmark_NAME=VALUE passes on to Google Benchmark (run)
};

// Throws Error(kUsage) naming every unmatched argument at once: each unknown option with
// perftest's or iperf3's spelling of it mapped to ours (its value in place) or the nearest
// option suggested, and each stray positional argument. With `benchmark_flags`, Google
// Benchmark's flags given as --benchmark_NAME=VALUE (or a bare switch of its) pass.
void check_unmatched(const std::vector<std::string>& unmatched, const cxxopts::Options& options,
                     const ArgumentRules& rules);

}  // namespace rdmabench
