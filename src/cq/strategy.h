// A completion-queue strategy as the user names it ("busy", "hybrid:20", "moderated:16,50"),
// and the pair of them a benchmark runs with: each side harvests its own completions its own
// way ("busy" for both, or "client=busy,server=event").
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/side.h"

namespace rdmabench {

// What a registered strategy is, for parsing, --help and the reports.
struct StrategyInfo {
  std::string_view name;                   // "hybrid"
  std::string_view usage;                  // "hybrid:<spin budget us>"
  std::string_view summary;                // one line for --help
  unsigned arguments = 0;                  // how many numbers follow the ':' (comma separated)
  std::array<uint32_t, 2> argument_max{};  // each argument lies in 0..max
  bool blocks = false;  // sleeps in the kernel at times, so each completion must be its own
                        // signal (write lat then waits for every write's completion)
};

struct CqStrategy {
  std::string name = "busy";
  std::vector<uint32_t> arguments;

  std::string text() const;  // "hybrid:20"
  bool operator==(const CqStrategy&) const = default;
};

struct CqChoice {
  CqStrategy client;
  CqStrategy server;

  const CqStrategy& of(Side side) const { return side == Side::kClient ? client : server; }
  // "busy" when both sides agree, otherwise "client=busy,server=event".
  std::string text() const;
  bool operator==(const CqChoice&) const = default;
};

// One strategy: a registered name and its arguments. Throws Error(kUsage) saying what is
// wrong and listing the strategies.
CqStrategy parse_cq_strategy(const std::string& text);
// "busy", or "client=busy,server=hybrid:20" (either order). Throws Error(kUsage).
CqChoice parse_cq_choice(const std::string& text);
// --cq: one or more choices separated by ';' (or by ',' when no choice has arguments or
// sides: "busy,event"); "all" is busy and event.
std::vector<CqChoice> parse_cq_choices(const std::string& text);

// Every registered strategy, in registration order.
const std::vector<StrategyInfo>& registered_strategies();
const StrategyInfo& strategy_info(const CqStrategy& strategy);  // of a parsed strategy

}  // namespace rdmabench
