#include "core/time_text.h"

#include <cstdio>

#include <array>
#include <cstdint>

#include "core/decimal_text.h"

namespace rdmabench {
namespace {

struct TimeUnit {
  std::string_view name;
  int64_t ns;
};

// Longest spelling first: "ms" before "m" and "s".
constexpr std::array<TimeUnit, 6> kUnits{{{"ns", 1},
                                          {"us", 1'000},
                                          {"ms", 1'000'000},
                                          {"s", 1'000'000'000},
                                          {"m", 60'000'000'000},
                                          {"h", 3'600'000'000'000}}};

constexpr int64_t kMaxTimeNs = 1000 * kUnits[5].ns;  // 1000 hours

// The unit `text` ends with (seconds when it ends with a digit), and the number before it.
std::optional<TimeUnit> split_unit(std::string_view& text) {
  if (!text.empty() && text.back() >= '0' && text.back() <= '9') return kUnits[3];
  for (const TimeUnit& unit : kUnits)
    if (text.ends_with(unit.name)) {
      text.remove_suffix(unit.name.size());
      return unit;
    }
  return std::nullopt;
}

}  // namespace

std::optional<std::chrono::nanoseconds> parse_time(std::string_view text) {
  const std::optional<TimeUnit> unit = split_unit(text);
  if (!unit) return std::nullopt;
  const std::optional<Decimal> number = read_decimal(text);
  if (!number) return std::nullopt;
  const std::optional<uint64_t> ns = times_unit(*number, static_cast<uint64_t>(unit->ns), false);
  if (!ns || *ns > static_cast<uint64_t>(kMaxTimeNs)) return std::nullopt;
  return std::chrono::nanoseconds(static_cast<int64_t>(*ns));
}

std::string time_text(std::chrono::nanoseconds time) {
  const int64_t ns = time.count();
  if (ns == 0) return "0s";
  for (auto unit = kUnits.rbegin(); unit != kUnits.rend() - 1; ++unit)  // h down to us
    if (ns % unit->ns == 0) return std::to_string(ns / unit->ns) + std::string(unit->name);
  return std::to_string(ns) + "ns";
}

std::string estimate_time_text(double seconds) {
  struct Unit {
    const char* name;
    double seconds;
  };
  constexpr Unit kUnits[] = {{"h", 3600}, {"min", 60}, {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}};
  if (seconds <= 0) return "0 s";
  for (const Unit& unit : kUnits)
    if (seconds >= unit.seconds || unit.seconds == 1e-6) {
      char text[32];
      std::snprintf(text, sizeof text, "%.3g %s", seconds / unit.seconds, unit.name);
      return text;
    }
  return "0 s";
}

}  // namespace rdmabench
