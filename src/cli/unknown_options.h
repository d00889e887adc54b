// What `run` does with the arguments its own options did not take, before anything touches a
// device or the network: Google Benchmark's --benchmark_* flags pass on; anything else is a
// usage error that names the argument and what to write instead (perftest's flags included).
#pragma once

#include <string>
#include <vector>

#include <cxxopts.hpp>

namespace rdmabench {

// Throws Error(kUsage) for the first unmatched argument that is not a --benchmark_* flag given
// as --benchmark_NAME=VALUE (or a bare Google Benchmark switch). `host` is the HOST taken, for
// a second positional argument.
void check_unmatched(const std::vector<std::string>& unmatched, const cxxopts::Options& options,
                     const std::string& host);

}  // namespace rdmabench
