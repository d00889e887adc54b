#include "runner/pass_limits.h"

#include <array>
#include <cstdio>
#include <utility>

#include "core/error.h"
#include "runner/run_counter.h"

namespace rdmabench {

namespace {

// The statistics --max-lat takes, and the counter each reads.
constexpr std::array<std::pair<const char*, const char*>, 8> kStatistics{{
    {"min", "lat_min_us"},
    {"p50", "lat_p50_us"},
    {"mean", "lat_mean_us"},
    {"p90", "lat_p90_us"},
    {"p99", "lat_p99_us"},
    {"p99.9", "lat_p999_us"},
    {"p999", "lat_p999_us"},
    {"max", "lat_max_us"},
}};

std::optional<double> positive_number(const std::string& text) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (used != text.size() || !(v > 0) || v > 1e12) return std::nullopt;
  return v;
}

std::string figure(double v) {
  char text[32];
  std::snprintf(text, sizeof text, v >= 1000 ? "%.0f" : "%.3g", v);
  return text;
}

}  // namespace

LatencyLimit parse_latency_limit(const std::string& text) {
  const size_t colon = text.find(':');
  const std::string statistic = text.substr(0, colon);
  const char* counter = nullptr;
  for (const auto& [name, c] : kStatistics)
    if (statistic == name) counter = c;
  const auto us =
      colon == std::string::npos ? std::nullopt : positive_number(text.substr(colon + 1));
  if (!counter || !us)
    throw Error(ExitCode::kUsage, "--max-lat '" + text +
                                      "': give STATISTIC:MICROSECONDS, for example p99:20 "
                                      "(statistics: min, p50, mean, p90, p99, p99.9, max)");
  return {statistic, counter, *us};
}

double parse_min_bandwidth(const std::string& text) {
  const auto v = positive_number(text);
  if (!v)
    throw Error(ExitCode::kUsage, "--min-bw '" + text +
                                      "': give the lowest bandwidth to pass in Gb/s, as the "
                                      "table's BW avg[Gb/s] column, for example 25");
  return *v;
}

bool judges(const PassLimits& limits, const TestSpec& spec,
            const benchmark::BenchmarkReporter::Run& run) {
  if (run.error_occurred || run.run_type != benchmark::BenchmarkReporter::Run::RT_Iteration)
    return false;
  return spec.mode == Mode::kBandwidth ? limits.min_bw_gbps.has_value()
                                       : limits.max_lat.has_value();
}

std::string missed_limit(const PassLimits& limits, const TestSpec& spec,
                         const benchmark::BenchmarkReporter::Run& run) {
  if (!judges(limits, spec, run)) return {};
  if (spec.mode == Mode::kBandwidth) {
    const double gbps = run_counter(run, "bytes_per_second") * 8 / 1e9;
    if (gbps < *limits.min_bw_gbps)
      return figure(gbps) + " Gb/s, below --min-bw " + figure(*limits.min_bw_gbps);
  } else {
    const LatencyLimit& l = *limits.max_lat;
    const double us = run_counter(run, l.counter);
    if (us > l.us)
      return l.statistic + " " + figure(us) + " us, above --max-lat " + l.statistic + ":" +
             figure(l.us);
  }
  return {};
}

}  // namespace rdmabench
