// How an open-loop run's round trips arrive on each connection (--arrivals, issue 68): a fixed
// period apart, or as a Poisson process of that mean gap.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace rdmabench {

enum class Arrivals : uint8_t { kFixed, kPoisson };

inline std::string to_string(Arrivals a) {
  return a == Arrivals::kPoisson ? "poisson" : "fixed";
}
inline std::optional<Arrivals> parse_arrivals(const std::string& text) {
  if (text == "fixed") return Arrivals::kFixed;
  if (text == "poisson") return Arrivals::kPoisson;
  return std::nullopt;
}

}  // namespace rdmabench
