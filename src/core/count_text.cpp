#include "core/count_text.h"

#include "core/decimal_text.h"

namespace rdmabench {
namespace {

constexpr uint64_t kMaxCount = 1'000'000'000'000'000;

uint64_t multiplier_of(char suffix) {
  switch (suffix) {
    case 'k':
    case 'K':
      return 1'000;
    case 'M':
      return 1'000'000;
    case 'G':
      return 1'000'000'000;
    default:
      return 0;
  }
}

}  // namespace

std::optional<uint64_t> parse_count(std::string_view text) {
  uint64_t multiplier = 1;
  if (!text.empty() && !(text.back() >= '0' && text.back() <= '9')) {
    multiplier = multiplier_of(text.back());
    if (multiplier == 0) return std::nullopt;
    text.remove_suffix(1);
  }
  const std::optional<Decimal> number = read_decimal(text);
  if (!number || text.starts_with('.')) return std::nullopt;
  const std::optional<uint64_t> count = times_unit(*number, multiplier, true);
  if (!count || *count > kMaxCount) return std::nullopt;
  return count;
}

}  // namespace rdmabench
