// adaptive: a spin budget set from the recent waits. The rule: keep a moving average of how
// long a wait for a completion took (each new wait weighs 1/8). While that average is at most
// 50 us, spin for up to twice the average (plus 1 us) before arming and blocking, so that a
// completion arriving about as late as usual is caught spinning; once the average is above
// 50 us, block at once. Why 50 us: a sleep and wakeup through the completion channel costs
// some microseconds of CPU and latency; spinning longer than several of those to save one
// wakeup costs more CPU than it saves, and the waits that long are the idle gaps of a lightly
// loaded service, where blocking is what a service wants.
#pragma once

#include <algorithm>

#include "core/clock.h"
#include "cq/poll_steps.h"

namespace rdmabench {

// The rule alone, apart from the CQ it waits on: what a wait of `waited_ns` teaches, and the spin
// budget that follows.
class AdaptiveBudget {
 public:
  static constexpr uint64_t kCutoffNs = 50'000;
  static constexpr uint64_t kFloorNs = 1'000;

  uint64_t budget_ns() const { return average_ns_ > kCutoffNs ? 0 : 2 * average_ns_ + kFloorNs; }
  void learn(uint64_t waited_ns) {
    average_ns_ = average_ns_ - average_ns_ / 8 + std::min(waited_ns, 8 * kCutoffNs) / 8;
  }
  uint64_t average_ns() const { return average_ns_; }

 private:
  uint64_t average_ns_ = 0;
};

class AdaptivePoller {
 public:
  static constexpr StrategyInfo kInfo{
      "adaptive", "adaptive", "spin budget from the recent waits (<= 50 us), then block", 0, {},
      true,       "adaptive"};
  explicit AdaptivePoller(PollTarget& target) : target_(target) { prepare_blocking(target); }

  int wait(std::span<ibv_wc> out) {
    int n = target_.poll(out);
    if (n > 0) return n;  // no wait: nothing learned
    const uint64_t start = now_ns();
    const uint64_t budget = rule_.budget_ns();
    n = budget > 0 ? spin_within(target_, out, start, budget) : 0;
    while (n == 0) {
      n = arm_and_block(target_, out);
      if (n == 0) n = target_.poll_skipping_quiet(out);
    }
    if (n < 0) return n;  // the peer ended: no wait to learn from
    rule_.learn(now_ns() - start);
    return n;
  }
  int try_poll(std::span<ibv_wc> out) { return target_.poll(out); }

 private:
  PollTarget& target_;
  AdaptiveBudget rule_;
};

}  // namespace rdmabench
