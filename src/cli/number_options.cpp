#include "cli/number_options.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "core/comma_list.h"
#include "core/count_text.h"
#include "core/decimal_text.h"
#include "core/error.h"
#include "core/printable_text.h"
#include "core/time_text.h"
#include "spec/spec_validation.h"
#include "spec/test_spec.h"

namespace rdmabench {

// A comma-separated list of whole numbers in [lo, hi], without repeats: --rate, --qps.
std::vector<uint64_t> parse_number_list(const std::string& text, const std::string& option,
                                        uint64_t lo, uint64_t hi, const std::string& what) {
  std::vector<uint64_t> out;
  for (const std::string& item : split_comma_list(text)) {
    const bool digits =
        !item.empty() && item.size() <= 9 && std::all_of(item.begin(), item.end(), ::isdigit);
    if (!digits || std::stoull(item) < lo || std::stoull(item) > hi)
      throw Error(ExitCode::kUsage, "--" + option + " '" + text + "': '" + item + "' is not " +
                                        what + " from " + std::to_string(lo) + " to " +
                                        std::to_string(hi));
    if (std::find(out.begin(), out.end(), std::stoull(item)) == out.end())
      out.push_back(std::stoull(item));
  }
  if (out.empty()) throw Error(ExitCode::kUsage, "--" + option + ": nothing given");
  return out;
}

// --rate: round trips (lat) or messages a QP (bw) per second, each 0..kMaxRate, or Gb/s a QP
// (bw: "2.5gbps" or "2.5Gb/s", above 0 and at most 10000).
std::vector<OfferedRate> parse_rates(const std::string& text) {
  std::vector<OfferedRate> rates;
  std::string counts;
  for (const std::string& item : split_comma_list(text)) {
    std::string lower = item;
    std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
    const size_t unit = lower.ends_with("gbps") ? 4 : lower.ends_with("gb/s") ? 4 : 0;
    if (unit == 0) {
      counts += (counts.empty() ? "" : ",") + item;
      continue;
    }
    const std::string number = item.substr(0, item.size() - unit);
    char* end = nullptr;
    const double gbps = std::strtod(number.c_str(), &end);
    if (number.empty() || end != number.c_str() + number.size() || !(gbps > 0 && gbps <= 10000))
      throw Error(ExitCode::kUsage, "--rate '" + item.substr(0, 40) +
                                        "': give Gb/s a QP above 0 and at most 10000 (2.5gbps)");
    rates.push_back({0, gbps});
  }
  if (!counts.empty())
    for (const uint64_t r : parse_number_list(counts, "rate", 0, kMaxRate,
                                              "a rate per second (lat: round trips; bw: "
                                              "messages a QP; examples: 1000, 0,1000,10000)"))
      rates.push_back({r, 0});
  if (rates.empty()) throw Error(ExitCode::kUsage, "--rate: nothing given");
  return rates;
}

std::vector<OfferedRate> parse_loads(const std::string& text, const std::vector<uint32_t>& qps) {
  std::vector<OfferedRate> loads;
  const uint64_t most = kMaxRate * kMaxQps;
  for (const uint64_t load : parse_number_list(text, "load", 0, most,
                                               "round trips a second over every QP (examples: "
                                               "12800, 0,2560,12800)")) {
    for (const uint32_t n : qps)
      if (load % n != 0 || load / n > kMaxRate)
        throw Error(ExitCode::kUsage,
                    "--load " + std::to_string(load) + " over --qps " + std::to_string(n) +
                        " is not a whole rate a QP of at most " + std::to_string(kMaxRate) +
                        " a second: give loads every --qps count divides (for 1,16,64,256: "
                        "multiples of 256, such as 2560,12800)");
    loads.push_back({load, 0, true});
  }
  return loads;
}

// --qps: QP counts, each 1..kMaxQps.
std::vector<uint32_t> parse_qps(const std::string& text) {
  const auto counts =
      parse_number_list(text, "qps", 1, kMaxQps, "a QP count (examples: 4, 1,2,4,8)");
  return {counts.begin(), counts.end()};
}

std::string value_spellings_help() {
  return "TIME is " + std::string(kTimeSpellings) + " (a number alone is seconds); COUNT is " +
         std::string(kCountSpellings) + " (k, M, G: thousands, millions, billions).\n";
}

std::chrono::nanoseconds parse_time_option(const std::string& text, std::string_view option,
                                           const TimeRange& range) {
  const std::optional<std::chrono::nanoseconds> time = parse_time(text);
  const std::string said = std::string(option) + " '" + printable(text, Keep::kUtf8, 40) + "': ";
  if (!time || *time < range.lo || *time > range.hi)
    throw Error(ExitCode::kUsage, said + "give a time from " + time_text(range.lo) + " to " +
                                      time_text(range.hi) + " (" + std::string(kTimeSpellings) +
                                      "; a number alone is seconds)");
  if (time->count() % range.step.count() != 0)
    throw Error(ExitCode::kUsage, said + "give it in whole multiples of " + time_text(range.step));
  return *time;
}

std::chrono::nanoseconds time_option(const cxxopts::ParseResult& args, const char* name,
                                     const TimeRange& range) {
  return parse_time_option(args[name].as<std::string>(), std::string("--") + name, range);
}

uint64_t parse_count_option(const std::string& text, std::string_view option, uint64_t lo,
                            uint64_t hi) {
  const std::optional<uint64_t> count = parse_count(text);
  if (!count || *count < lo || *count > hi)
    throw Error(ExitCode::kUsage, std::string(option) + " '" + printable(text, Keep::kUtf8, 40) +
                                      "': give a count from " + std::to_string(lo) + " to " +
                                      std::to_string(hi) + " (" + std::string(kCountSpellings) +
                                      ": k, M and G are thousands, millions, billions)");
  return *count;
}

uint64_t count_option(const cxxopts::ParseResult& args, const char* name, uint64_t lo,
                      uint64_t hi) {
  return parse_count_option(args[name].as<std::string>(), std::string("--") + name, lo, hi);
}

uint32_t count_option32(const cxxopts::ParseResult& args, const char* name, uint32_t lo,
                        uint32_t hi) {
  return static_cast<uint32_t>(count_option(args, name, lo, hi));
}

uint64_t parse_number_option(const std::string& text, std::string_view option, uint64_t lo,
                             uint64_t hi, std::string_view what) {
  const bool digits = !text.empty() && text.size() <= 20 &&
                      text.find_first_not_of("0123456789") == std::string::npos;
  errno = 0;
  const uint64_t value = digits ? std::strtoull(text.c_str(), nullptr, 10) : 0;
  if (!digits || errno == ERANGE || value < lo || value > hi)
    throw Error(ExitCode::kUsage, std::string(option) + " '" + printable(text, Keep::kUtf8, 40) +
                                      "': give " + std::string(what) + " from " +
                                      std::to_string(lo) + " to " + std::to_string(hi) +
                                      ", in plain digits");
  return value;
}

uint32_t number_option(const cxxopts::ParseResult& args, const char* name, uint32_t lo, uint32_t hi,
                       std::string_view what) {
  return static_cast<uint32_t>(
      parse_number_option(args[name].as<std::string>(), std::string("--") + name, lo, hi, what));
}

uint64_t parse_size_option(const std::string& text, std::string_view option, uint64_t lo,
                           uint64_t hi) {
  const std::optional<uint64_t> size = text == "0" ? std::optional<uint64_t>(0) : parse_size(text);
  if (!size || *size < lo || *size > hi)
    throw Error(ExitCode::kUsage, std::string(option) + " '" + printable(text, Keep::kUtf8, 40) +
                                      "': give a size from " + std::to_string(lo) + " to " +
                                      std::to_string(hi) +
                                      " bytes (4096, 4K or 4KiB: K and M are 1024 and 1024^2)");
  return *size;
}

uint32_t size_option(const cxxopts::ParseResult& args, const char* name, uint32_t lo, uint32_t hi) {
  return static_cast<uint32_t>(
      parse_size_option(args[name].as<std::string>(), std::string("--") + name, lo, hi));
}

namespace {

std::string bound_text(double bound) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", bound);
  return text;
}

}  // namespace

double parse_decimal_option(const std::string& text, std::string_view option, double lo,
                            double hi) {
  const std::optional<Decimal> number = read_decimal(text);
  const double value =
      number ? static_cast<double>(number->whole) +
                   static_cast<double>(number->fraction) / static_cast<double>(number->scale)
             : 0;
  if (!number || value < lo || value > hi)
    throw Error(ExitCode::kUsage, std::string(option) + " '" + printable(text, Keep::kUtf8, 40) +
                                      "': give a number from " + bound_text(lo) + " to " +
                                      bound_text(hi) + " (such as 0.5 or 2; no sign, no exponent)");
  return value;
}

double decimal_option(const cxxopts::ParseResult& args, const char* name, double lo, double hi) {
  return parse_decimal_option(args[name].as<std::string>(), std::string("--") + name, lo, hi);
}

}  // namespace rdmabench
