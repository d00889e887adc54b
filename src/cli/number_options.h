// The numbers of run's command line: lists of whole numbers (--qps, --post-list), offered rates
// (--rate, in messages or Gb/s), seconds; each out of range refused naming its option.
#pragma once

#include <cstdint>
#include <cxxopts.hpp>
#include <string>
#include <vector>

#include "runner/benchmark_suite.h"

namespace rdmabench {

// A comma-separated list of whole numbers in [lo, hi], without repeats: --rate, --qps.
std::vector<uint64_t> parse_number_list(const std::string& text, const std::string& option,
                                        uint64_t lo, uint64_t hi, const std::string& what);
// --rate: round trips (lat) or messages a QP (bw) per second, each 0..kMaxRate, or Gb/s a QP
// (bw: "2.5gbps" or "2.5Gb/s", above 0 and at most 10000).
std::vector<OfferedRate> parse_rates(const std::string& text);
// --qps: QP counts, each 1..kMaxQps.
std::vector<uint32_t> parse_qps(const std::string& text);
// Seconds given on the command line, within [lo, hi], as nanoseconds.
uint64_t seconds_option(const cxxopts::ParseResult& args, const char* name, double lo, double hi);

}  // namespace rdmabench
