// Times as a user writes them, the one parser of every time option (--duration, --margin,
// --timeout, --wait, --report-every, serve's --max-duration, search's --budget, ...): a number
// of seconds, or a number with its unit.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace rdmabench {

// What a time option takes, for --help and refusals.
inline constexpr std::string_view kTimeSpellings = "5, 5s, 250ms, 40us, 2m or 1h";

// "5" and "5s" (seconds), "250ms", "40us", "100ns", "2m" (minutes), "1h", with a decimal
// fraction ("0.5", "1.5m"): the time, rounded to the nanosecond; nullopt for anything else
// (a sign, an exponent, spaces, another unit, more than 12 digits, above 1000 hours).
std::optional<std::chrono::nanoseconds> parse_time(std::string_view text);

// The other way, for messages: "250ms", "1500ms", "2m", "24h" (the largest unit in which the
// time is whole), which parse_time reads back to the same time.
std::string time_text(std::chrono::nanoseconds time);

// An estimate's time, to three significant digits in the largest unit under it: "250 ms",
// "12.5 s", "3.1 h" ("0 s" for none).
std::string estimate_time_text(double seconds);

}  // namespace rdmabench
