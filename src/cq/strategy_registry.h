// The registered completion strategies. Adding one: a header in src/cq/ with a class that
// satisfies CompletionPoller, and its name in the list below.
#pragma once

#include "core/error.h"
#include "cq/adaptive_poller.h"
#include "cq/busy_poller.h"
#include "cq/completion_poller.h"
#include "cq/dynamic_poller.h"
#include "cq/epoll_poller.h"
#include "cq/event_poller.h"
#include "cq/hybrid_poller.h"
#include "cq/moderated_poller.h"
#include "cq/yield_poller.h"
#include "verbs/context.h"

namespace rdmabench {

template <CompletionPoller... P>
struct PollerList {};

// One strategy a line (the last without a comma).
// clang-format off
using RegisteredPollers = PollerList<
    BusyPoller,
    EventPoller,
    EpollPoller,
    HybridPoller,
    AdaptivePoller,
    ModeratedPoller,
    YieldPoller,
    DynamicPoller>;
// clang-format on

// Calls fn(poller) with a poller of the target's strategy (built here, per run).
template <typename Fn, typename First, typename... Rest>
decltype(auto) with_poller_of(PollerList<First, Rest...>, PollTarget& target, Fn&& fn) {
  if (target.strategy.name == First::kInfo.name) {
    First poller(target);
    return fn(poller);
  }
  if constexpr (sizeof...(Rest) > 0) {
    return with_poller_of(PollerList<Rest...>{}, target, std::forward<Fn>(fn));
  } else {
    throw Error(ExitCode::kInternal, "unregistered strategy " + target.strategy.name);
  }
}

template <typename Fn>
decltype(auto) with_poller(PollTarget& target, Fn&& fn) {
  return with_poller_of(RegisteredPollers{}, target, std::forward<Fn>(fn));
}

// Why the device cannot take the strategy ("" when it can): what a side checks of its own
// device before it connects (moderation: the device's cq_mod_caps).
std::string strategy_refusal(const Context& context, const CqStrategy& strategy);

// What a strategy sets up once per endpoint, after the CQ is made (moderation).
void prepare_strategy(CompletionQueue& cq, const Context& context, const CqStrategy& strategy);

}  // namespace rdmabench
