// Which of the suite's benchmarks --benchmark_filter selects, decided before anything touches a
// device or the network, by Google Benchmark's own rules (1.7, benchmark_register.cc): an empty
// filter or "all" selects everything, a leading '-' negates, and the rest is a POSIX extended
// regular expression searched for in each benchmark's full name.
#pragma once

#include <string>
#include <vector>

#include "runner/benchmark_suite.h"

namespace rdmabench {

// The name Google Benchmark gives the benchmark BenchmarkSuite registers for `spec`, such as
// send/bw/busy/65536/iterations:200/manual_time.
std::string registered_name(const TestSpec& spec, const RunLength& length);

// The specs `filter` selects, in order. Throws Error(kUsage) when it is not a regular
// expression or selects none, naming a few of the benchmarks there are.
std::vector<TestSpec> selected_specs(const std::vector<TestSpec>& specs, const RunLength& length,
                                     const std::string& filter);

// How many of `specs` `filter` selects (selected_specs' count). Throws Error(kUsage) when it is not
// a regular expression or selects none, naming a few of the benchmarks there are.
size_t count_selected(const std::vector<TestSpec>& specs, const RunLength& length,
                      const std::string& filter);

}  // namespace rdmabench
