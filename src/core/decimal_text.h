// The number part of a time or a count as a user writes it ("5", "0.25", "1.5"), read exactly
// and multiplied by its unit in whole numbers, so that "0.1s" is 100 ms to the nanosecond and
// "1.5k" 1500 messages.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace rdmabench {

struct Decimal {
  uint64_t whole = 0;     // the digits before the point: 1.25 -> 1
  uint64_t fraction = 0;  // those after it: 1.25 -> 25
  uint64_t scale = 1;     // 10 to the number of digits after it: 1.25 -> 100
};

// Digits with at most one point, followed by digits ("0.5", ".5"): at most 16 before the point
// and 9 after; nullopt for anything else (a sign, an exponent, spaces, "5.", ".").
std::optional<Decimal> read_decimal(std::string_view text);

// `number` times `unit`, a power of ten or 60 or 3600 times one: rounded to the nearest whole
// one, or with `exact`, nullopt when it is not whole (1.5 messages); nullopt when it overflows.
std::optional<uint64_t> times_unit(const Decimal& number, uint64_t unit, bool exact);

}  // namespace rdmabench
