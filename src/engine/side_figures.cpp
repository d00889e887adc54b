#include "engine/side_figures.h"

#include "net/message_fields.h"

namespace rdmabench {

void add_to_message(nlohmann::json& message, const SideFigures& f) {
  message["cpu_ns"] = f.cpu_ns;
  message["voluntary_switches"] = f.voluntary_switches;
  message["involuntary_switches"] = f.involuntary_switches;
  message["wakeups"] = f.wakeups;
  message["empty_polls"] = f.empty_polls;
}

SideFigures side_figures_from(const nlohmann::json& message) {
  const MessageContext ctx{"done"};
  SideFigures f;
  f.cpu_ns = unsigned_as<uint64_t>(message, ctx, "cpu_ns");
  f.voluntary_switches = unsigned_as<uint64_t>(message, ctx, "voluntary_switches");
  f.involuntary_switches = unsigned_as<uint64_t>(message, ctx, "involuntary_switches");
  f.wakeups = unsigned_as<uint64_t>(message, ctx, "wakeups");
  f.empty_polls = unsigned_as<uint64_t>(message, ctx, "empty_polls");
  return f;
}

}  // namespace rdmabench
