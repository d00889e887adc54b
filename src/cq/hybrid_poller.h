// hybrid:<us>: spins for up to a budget of microseconds, then arms and blocks (spin-then-block,
// like the kernel's hybrid polling). hybrid:0 is event; a budget far above the round trip is
// busy.
#pragma once

#include "core/clock.h"
#include "cq/poll_steps.h"

namespace rdmabench {

class HybridPoller {
 public:
  static constexpr StrategyInfo kInfo{"hybrid",
                                      "hybrid:<spin budget us>",
                                      "spin up to the budget, then arm and block",
                                      1,
                                      {1'000'000, 0},
                                      true,
                                      "hybrid:50"};

  explicit HybridPoller(PollTarget& target)
      : target_(target), budget_ns_(uint64_t{target.strategy.arguments.at(0)} * 1000) {
    prepare_blocking(target);
  }

  int wait(std::span<ibv_wc> out) {
    int n = target_.poll(out);
    if (n > 0) return n;
    if (budget_ns_ > 0 && (n = spin_within(target_, out, now_ns(), budget_ns_)) != 0) return n;
    for (;;) {
      n = arm_and_block(target_, out);
      if (n != 0) return n;
      n = target_.poll_skipping_quiet(out);
      if (n > 0) return n;
    }
  }
  int try_poll(std::span<ibv_wc> out) { return target_.poll(out); }

 private:
  PollTarget& target_;
  uint64_t budget_ns_;
};

}  // namespace rdmabench
