#include "core/decimal_text.h"

#include <limits>

namespace rdmabench {
namespace {

constexpr size_t kMaxWholeDigits = 16;
constexpr size_t kMaxFractionDigits = 9;

bool all_digits(std::string_view text) {
  for (const char c : text)
    if (c < '0' || c > '9') return false;
  return true;
}

uint64_t value_of(std::string_view digits) {
  uint64_t v = 0;
  for (const char c : digits) v = v * 10 + static_cast<uint64_t>(c - '0');
  return v;
}

}  // namespace

std::optional<Decimal> read_decimal(std::string_view text) {
  const size_t point = text.find('.');
  const std::string_view whole = text.substr(0, point);
  const std::string_view fraction =
      point == std::string_view::npos ? std::string_view() : text.substr(point + 1);
  if (point != std::string_view::npos && fraction.empty()) return std::nullopt;  // "5."
  if (whole.empty() && fraction.empty()) return std::nullopt;
  if (!all_digits(whole) || !all_digits(fraction) || whole.size() > kMaxWholeDigits ||
      fraction.size() > kMaxFractionDigits)
    return std::nullopt;
  Decimal d{value_of(whole), value_of(fraction), 1};
  for (size_t i = 0; i < fraction.size(); ++i) d.scale *= 10;
  return d;
}

std::optional<uint64_t> times_unit(const Decimal& number, uint64_t unit, bool exact) {
  if (number.whole > std::numeric_limits<uint64_t>::max() / unit) return std::nullopt;
  // The fraction's part: with units of powers of ten (and 60 or 3600 of them) and a scale of at
  // most 10^9, either the scale divides the unit, or the unit is below the scale and the
  // product below 10^18.
  uint64_t part = 0;
  if (unit % number.scale == 0) {
    part = number.fraction * (unit / number.scale);
  } else {
    const uint64_t product = number.fraction * unit;
    if (exact && product % number.scale != 0) return std::nullopt;
    part = (product + number.scale / 2) / number.scale;
  }
  const uint64_t whole = number.whole * unit;
  if (whole > std::numeric_limits<uint64_t>::max() - part) return std::nullopt;
  return whole + part;
}

}  // namespace rdmabench
