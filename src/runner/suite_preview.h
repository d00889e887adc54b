// What a suite would run, said before anything opens a device or connects: `run --dry-run`'s
// listing, its estimate, and the line a bare run prints, all from the one parsed plan (so the
// note of a bare `run HOST --iters 100` says 100 messages, not the profile's 5000).
#pragma once

#include <string>
#include <vector>

#include "runner/suite_options.h"

namespace rdmabench {

// The Google Benchmark flags (--benchmark_*) a preview reads: what the filter selects, and how
// long a run with no --iters or --duration goes.
struct GoogleBenchmarkFlags {
  std::string filter;          // --benchmark_filter (empty: every benchmark)
  double min_time_s = 0.5;     // --benchmark_min_time in seconds (Google Benchmark's default)
  bool min_time_known = true;  // false: given in a form read as no time (such as 100x)
  uint64_t repetitions = 1;    // --benchmark_repetitions
  bool list_tests = false;     // --benchmark_list_tests: the names alone
};

// The last of each flag in `args`, as Google Benchmark takes it; a value it would refuse is left
// for it to refuse when the run starts.
GoogleBenchmarkFlags google_benchmark_flags(const std::vector<std::string>& args);

// "write bw and lat, busy CQ, 2 B, 4 KiB and 64 KiB, 5000 messages each".
std::string suite_summary(const SuiteOptions& suite);

// The --dry-run listing: a header, each benchmark the filter selects with its length, and an
// estimate of the time (what is known of it: timed windows, paced rates, min_time) and of the
// payload. Throws Error(kUsage) for a filter that selects none (as the run would).
std::string suite_preview(const SuiteOptions& suite, const GoogleBenchmarkFlags& flags);

// --benchmark_list_tests: the names Google Benchmark would list, one a line.
std::string suite_test_list(const SuiteOptions& suite, const GoogleBenchmarkFlags& flags);

}  // namespace rdmabench
