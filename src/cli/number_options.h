// The numbers of the commands' lines: times (core/time_text.h), counts (core/count_text.h),
// sizes (spec/test_spec.h) and numbers that name something (a port, an index) within a range, lists
// of whole numbers (--qps, --post-list), offered rates (--rate, in messages or Gb/s); each misspelt
// or out of range refused naming its option and what it takes.
#pragma once

#include <chrono>
#include <cstdint>
#include <cxxopts.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "spec/benchmark_matrix.h"

namespace rdmabench {

// A comma-separated list of whole numbers in [lo, hi], without repeats: --rate, --qps.
std::vector<uint64_t> parse_number_list(const std::string& text, const std::string& option,
                                        uint64_t lo, uint64_t hi, const std::string& what);
// --rate: round trips (lat) or messages a QP (bw) per second, each 0..kMaxRate, or Gb/s a QP
// (bw: "2.5gbps" or "2.5Gb/s", above 0 and at most 10000).
std::vector<OfferedRate> parse_rates(const std::string& text);
// --load's items: round trips (bw: messages) per second over every QP of a benchmark (0: back to
// back), each split evenly over the QPs: every count of `qps` must divide every load.
std::vector<OfferedRate> parse_loads(const std::string& text, const std::vector<uint32_t>& qps);
// --qps: QP counts, each 1..kMaxQps.
std::vector<uint32_t> parse_qps(const std::string& text);
// The times a time option takes: from `lo` to `hi`, in whole `step`s (a time the run carries in
// milliseconds refuses 1.5ms rather than cut it).
struct TimeRange {
  std::chrono::nanoseconds lo;
  std::chrono::nanoseconds hi;
  std::chrono::nanoseconds step{1};
};

// --help's note of what TIME and COUNT take (one line each), for every command that has them.
std::string value_spellings_help();

// `text` given to `option` ("--duration") read as a time (5, 250ms, 2m) within `range`.
std::chrono::nanoseconds parse_time_option(const std::string& text, std::string_view option,
                                           const TimeRange& range);
// The time option `name` (declared as text: cxxopts' own numbers take "1m" as 1), within range.
std::chrono::nanoseconds time_option(const cxxopts::ParseResult& args, const char* name,
                                     const TimeRange& range);

// `text` given to `option` read as a count (5000, 10k, 1.5M) from `lo` to `hi`.
uint64_t parse_count_option(const std::string& text, std::string_view option, uint64_t lo,
                            uint64_t hi);
// The count option `name` (declared as text), from `lo` to `hi`.
uint64_t count_option(const cxxopts::ParseResult& args, const char* name, uint64_t lo, uint64_t hi);
// The same for a count the request keeps in 32 bits (a queue depth, a thread count).
uint32_t count_option32(const cxxopts::ParseResult& args, const char* name, uint32_t lo,
                        uint32_t hi = UINT32_MAX);

// `text` given to `option` read as a number that names something (a port, an index, a level, a
// seed): plain decimal digits alone (no sign, no 0x, no multiplier: 10k is a count, not an
// index) from `lo` to `hi`; refused naming `what` it is ("a TCP port") and its range.
uint64_t parse_number_option(const std::string& text, std::string_view option, uint64_t lo,
                             uint64_t hi, std::string_view what);
// The number option `name` (declared as text: cxxopts' own numbers take 0x10 as 16).
uint32_t number_option(const cxxopts::ParseResult& args, const char* name, uint32_t lo, uint32_t hi,
                       std::string_view what);

// `text` given to `option` read as one size in bytes (spec/test_spec.h's parse_size: 4096, 4K,
// 4KiB), or 0 where `lo` is 0, from `lo` to `hi`: --inline, --mtu.
uint64_t parse_size_option(const std::string& text, std::string_view option, uint64_t lo,
                           uint64_t hi);
// The size option `name` (declared as text).
uint32_t size_option(const cxxopts::ParseResult& args, const char* name, uint32_t lo, uint32_t hi);

// `text` given to `option` read as a plain decimal (0.8, 2, .5: no sign, no exponent, nothing
// after it) from `lo` to `hi`: fractions and ratios (--min-fraction, --min-effect).
double parse_decimal_option(const std::string& text, std::string_view option, double lo, double hi);
// The decimal option `name` (declared as text: cxxopts' own numbers take "0.8abc" as 0.8).
double decimal_option(const cxxopts::ParseResult& args, const char* name, double lo, double hi);

}  // namespace rdmabench
