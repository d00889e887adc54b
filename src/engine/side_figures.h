// What one side spent on one run, over its pattern run alone: the figures that explain a
// completion strategy. The server sends its own in the "done" message.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "cq/poll_target.h"
#include "engine/resource_usage.h"

namespace rdmabench {

struct SideFigures {
  uint64_t cpu_ns = 0;
  uint64_t voluntary_switches = 0;
  uint64_t involuntary_switches = 0;
  uint64_t wakeups = 0;      // completion events taken
  uint64_t empty_polls = 0;  // ibv_poll_cq calls that found nothing

  static SideFigures of(const ResourceUsage& used, const PollCounts& counts) {
    return {used.cpu_ns, static_cast<uint64_t>(used.voluntary_switches),
            static_cast<uint64_t>(used.involuntary_switches), counts.wakeups, counts.empty_polls};
  }
};

// The fields of a "done" message, and back (Error naming a missing or malformed field).
void add_to_message(nlohmann::json& message, const SideFigures& figures);
SideFigures side_figures_from(const nlohmann::json& message);

}  // namespace rdmabench
