// moderated:<count>,<us>: CQ moderation (ibv_modify_cq): the device raises one event per
// `count` completions or after `us` microseconds, and the side blocks on the channel as in
// event. Where the device has no moderation (rxe among them) setting up fails with a clear
// error naming the device; there is no silent fallback.
#pragma once

#include "core/error.h"
#include "cq/event_poller.h"
#include "verbs/context.h"

namespace rdmabench {

class ModeratedPoller : public EventPoller {
 public:
  // Not in the polling study's default sweep: its counts are the device's to take, and the
  // software devices the study runs on in CI (rxe, siw) moderate nothing.
  static constexpr StrategyInfo kInfo{
      "moderated", "moderated:<count>,<us>", "CQ moderation (ibv_modify_cq), then block as event",
      2,           {65535, 65535},           true};

  // Why the device cannot moderate as asked ("" when it can): its cq_mod_caps, which a side
  // reads before it connects.
  static std::string refusal(const Context& context, const CqStrategy& strategy) {
    return refusal(context.cq_moderation_caps(), context.device_name(), strategy);
  }
  // The same from the device's caps and name (a fake device's, in the unit tests).
  static std::string refusal(const ibv_cq_moderation_caps& caps, const std::string& device,
                             const CqStrategy& strategy) {
    if (caps.max_cq_count == 0)
      return "--cq " + strategy.text() + ": device " + device +
             " has no CQ moderation (ibv_query_device_ex: cq_mod_caps.max_cq_count is 0); "
             "choose another strategy (busy, event, epoll, hybrid, adaptive)";
    if (strategy.arguments.at(0) > caps.max_cq_count ||
        strategy.arguments.at(1) > caps.max_cq_period)
      return "--cq " + strategy.text() + ": device " + device + " moderates at most " +
             std::to_string(caps.max_cq_count) + " completions, " +
             std::to_string(caps.max_cq_period) + " us";
    return "";
  }

  // Once per endpoint, after its CQ is made.
  static void prepare(CompletionQueue& cq, const Context& context, const CqStrategy& strategy) {
    if (const std::string why = refusal(context, strategy); !why.empty())
      throw Error(ExitCode::kUsage, why);
    cq.moderate(static_cast<uint16_t>(strategy.arguments.at(0)),
                static_cast<uint16_t>(strategy.arguments.at(1)));
  }

  using EventPoller::EventPoller;  // waits as event does
};

}  // namespace rdmabench
