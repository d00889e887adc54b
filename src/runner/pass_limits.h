// --min-bw and --max-lat: limits one run is judged by, for health checks (perftest's -w and
// -y). Each row of the matching mode is held to them; a row that misses is named with its
// figure and the limit, and the run exits kLimitMissed.
#pragma once

#include <benchmark/benchmark.h>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "spec/test_spec.h"

namespace rdmabench {

struct LatencyLimit {
  std::string statistic;  // as given: p50, p99, p99.9, mean, max, ...
  std::string counter;    // the row's counter it reads: lat_p99_us
  double us = 0;
};

struct PassLimits {
  std::optional<double> min_bw_gbps;  // bw rows: BW avg[Gb/s] at least this
  std::optional<LatencyLimit> max_lat;
  bool any() const { return min_bw_gbps || max_lat; }
};

// --max-lat "p99:20" (statistic:microseconds). Throws Error(kUsage) naming the choices.
LatencyLimit parse_latency_limit(const std::string& text);
// --min-bw "25" (Gb/s). Throws Error(kUsage).
double parse_min_bandwidth(const std::string& text);

// Is this row held to a limit? Only iteration rows that ran, of a mode a limit was given for
// (aggregate and failed rows are not judged).
bool judges(const PassLimits& limits, const TestSpec& spec,
            const benchmark::BenchmarkReporter::Run& run);
// What one row misses, in words ("12.4 Gb/s, below --min-bw 25"); empty when it passes or
// is not judged.
std::string missed_limit(const PassLimits& limits, const TestSpec& spec,
                         const benchmark::BenchmarkReporter::Run& run);

}  // namespace rdmabench
