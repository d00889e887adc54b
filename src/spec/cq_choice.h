// A completion-queue strategy as the user names it ("busy", "hybrid:20", "moderated:16,50"),
// and the pair of them a benchmark runs with: each side harvests its own completions its own
// way ("busy" for both, or "client=busy,server=event"). Plain values: finding a strategy by
// name, and the list of them, are the registry's (cq/strategy.h), as patterns' are bench's.
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
  // How `rdmabench study polling` runs it by default ("hybrid:50"); "": not in its default
  // sweep (a --cq given to the study still takes it).
  std::string_view studied_as = {};
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

}  // namespace rdmabench
