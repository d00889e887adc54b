// What every completion strategy provides, checked at compile time: the hot loops call it
// directly (no virtual call). A strategy is one header in src/cq/ plus one line in
// src/cq/strategy_registry.h.
#pragma once

#include <infiniband/verbs.h>

#include <concepts>
#include <span>

#include "cq/poll_target.h"
#include "cq/strategy.h"

namespace rdmabench {

template <typename P>
concept CompletionPoller = requires(P poller, std::span<ibv_wc> out, PollTarget& target) {
  // Name, usage, arguments, whether it blocks.
  { P::kInfo } -> std::convertible_to<StrategyInfo>;
  // Built per run (outside the timed windows) on one side's CQ.
  requires std::constructible_from<P, PollTarget&>;
  // At least one completion, waited for the strategy's way, or kPeerEnded when the peer's end
  // of sending ended the wait (PollTarget::peer_ended); throws once the target's timeout
  // passes with none, or when the run is aborted.
  { poller.wait(out) } -> std::same_as<int>;
  // One poll, without waiting (may return 0).
  { poller.try_poll(out) } -> std::same_as<int>;
};

}  // namespace rdmabench
