// Counts as a user writes them, the one parser of every count option (--iters, --warmup,
// --lat-iters, --points, --tx-depth, --rate's items, ...): a whole number, or one with a
// decimal multiplier.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rdmabench {

// What a count option takes, for --help and refusals.
inline constexpr std::string_view kCountSpellings = "5000, 10k, 1.5M or 1G";

// "5000", "10k" or "10K" (10 000), "1.5M" (1 500 000), "2G" (2 000 000 000): a whole count;
// nullopt for anything else (a sign, spaces, a fraction that leaves part of one, more than 16
// digits, above 10^15). The multipliers are powers of 1000: a count, not a size (sizes' K is
// 1024).
std::optional<uint64_t> parse_count(std::string_view text);

// "1 round", "7 rounds": a count and its noun, plural where it is not one.
inline std::string counted(uint64_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

}  // namespace rdmabench
