#include "runner/suite_preview.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>

#include "core/byte_units.h"
#include "core/comma_list.h"
#include "core/count_text.h"
#include "core/time_text.h"
#include "runner/benchmark_filter.h"

namespace rdmabench {

namespace {

// Google Benchmark's reading of a switch's value (1.7, IsTruthyFlagValue): "", "1", "true", "y"
// are true; "0", "f", "n", "false", "no", "off" false.
bool truthy(std::string value) {
  if (value.size() == 1)
    return std::isalnum(static_cast<unsigned char>(value[0])) &&
           std::string_view("0fFnN").find(value[0]) == std::string_view::npos;
  value = lower_case(value);
  return value != "false" && value != "no" && value != "off";
}

// "a, b and c".
std::string and_list(const std::vector<std::string>& items) {
  std::string all;
  for (size_t i = 0; i < items.size(); ++i)
    all += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  return all;
}

// How long one benchmark's measurement goes, in its own words.
std::string length_text(const RunLength& length, const GoogleBenchmarkFlags& flags) {
  if (length.timed_window()) return timed_window_text(length);
  if (length.iterations > 0) return std::to_string(length.iterations) + " messages";
  return flags.min_time_known
             ? "Google Benchmark's min_time, " + estimate_time_text(flags.min_time_s)
             : "Google Benchmark's --benchmark_min_time";
}

// The least time `spec` can take (what a timed window, a paced rate or min_time fixes; a run at
// full speed over a link nobody named fixes none), repetitions included.
double least_seconds(const TestSpec& spec, const RunLength& length,
                     const GoogleBenchmarkFlags& flags) {
  double once = 0;
  if (length.timed_window())
    once = static_cast<double>(length.window_with_margins_ns()) * 1e-9;
  else if (length.iterations == 0)
    once = flags.min_time_known ? flags.min_time_s : 0;
  else if (spec.rate > 0)
    once = static_cast<double>(length.iterations) / static_cast<double>(spec.rate);
  return once * static_cast<double>(flags.repetitions);
}

// The payload a run by --iters carries, both ways where both carry it.
uint64_t payload_bytes(const TestSpec& spec, const RunLength& length,
                       const GoogleBenchmarkFlags& flags) {
  if (length.iterations == 0 || length.timed_window()) return 0;
  return spec.payload_bytes(length.iterations) * flags.repetitions;
}

std::string estimate_text(const std::vector<TestSpec>& specs, const RunLength& length,
                          const GoogleBenchmarkFlags& flags) {
  double seconds = 0;
  uint64_t payload = 0;
  for (const TestSpec& spec : specs) {
    seconds += least_seconds(spec, length, flags);
    payload += payload_bytes(spec, length, flags);
  }
  std::vector<std::string> parts;
  if (seconds > 0) parts.push_back("at least " + estimate_time_text(seconds));
  if (payload > 0)
    parts.push_back("the time the payload takes (" + estimate_size_text(payload) + ": " +
                    estimate_time_text(seconds_at_estimate_link(payload)) + " at " +
                    std::to_string(kEstimateLinkGbps) + " Gb/s)");
  parts.emplace_back("a connection and its setup for each benchmark");
  std::string text = "estimate: ";
  for (size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? "" : ", plus ") + parts[i];
  return text;
}

}  // namespace

GoogleBenchmarkFlags google_benchmark_flags(const std::vector<std::string>& args) {
  GoogleBenchmarkFlags flags;
  for (const std::string& arg : args) {
    const size_t equals = arg.find('=');
    const std::string flag = arg.substr(0, equals);
    const std::string value = equals == std::string::npos ? "" : arg.substr(equals + 1);
    if (flag == "--benchmark_filter") flags.filter = value;
    if (flag == "--benchmark_list_tests") flags.list_tests = truthy(value);
    if (flag == "--benchmark_repetitions")
      flags.repetitions = std::max<uint64_t>(1, parse_count(value).value_or(1));
    if (flag == "--benchmark_min_time") {
      const auto time = parse_time(value);
      flags.min_time_known = time.has_value();
      if (time) flags.min_time_s = static_cast<double>(time->count()) * 1e-9;
    }
  }
  return flags;
}

std::string suite_summary(const SuiteOptions& suite) {
  const BenchmarkMatrix& m = suite.matrix;
  std::vector<std::string> patterns, modes, cqs, sizes;
  for (const auto& [pattern, _] : m.patterns) patterns.push_back(pattern.name());
  for (Mode mode : m.modes) modes.push_back(to_string(mode));
  for (const CqChoice& cq : m.cq_choices) cqs.push_back(cq.text());
  for (uint64_t size : m.sizes) sizes.push_back(size_text(size));
  return and_list(patterns) + " " + and_list(modes) + ", " + and_list(cqs) + " CQ, " +
         and_list(sizes) + ", " + length_text(suite.length, GoogleBenchmarkFlags{}) + " each";
}

std::string suite_preview(const SuiteOptions& suite, const GoogleBenchmarkFlags& flags) {
  const std::vector<TestSpec> all = expand_specs(suite.matrix);
  const std::vector<TestSpec> specs = selected_specs(all, suite.length, flags.filter);
  std::string text =
      "rdmabench: dry run, nothing opened or connected: " + counted(specs.size(), "benchmark");
  if (specs.size() != all.size())
    text += " (of " + std::to_string(all.size()) + "; --benchmark_filter selects these)";
  text += " against " + suite.peer.address.host + " port " +
          std::to_string(suite.peer.address.port) + "\n";
  text += "each: " + length_text(suite.length, flags) +
          (suite.length.iterations > 0 && !suite.length.timed_window() ? " a QP" : "") +
          ", after " + std::to_string(suite.length.warmup) + " warm-up messages";
  if (flags.repetitions > 1) text += ", " + std::to_string(flags.repetitions) + " repetitions";
  if (suite.matrix.base.validate) text += ", every message checked (--validate)";
  if (suite.matrix.base.verify) text += ", then a --verify check run";
  text += "\n";
  for (const TestSpec& spec : specs) text += "  " + registered_name(spec, suite.length) + "\n";
  if (suite.matrix.sizes_to_mtu)
    text += "note: the default sizes stop at the device's path MTU, known once it is open\n";
  return text + estimate_text(specs, suite.length, flags) + "\n";
}

std::string suite_test_list(const SuiteOptions& suite, const GoogleBenchmarkFlags& flags) {
  std::string text;
  for (const TestSpec& spec :
       selected_specs(expand_specs(suite.matrix), suite.length, flags.filter))
    text += registered_name(spec, suite.length) + "\n";
  return text;
}

}  // namespace rdmabench
