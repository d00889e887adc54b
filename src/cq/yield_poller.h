// yield: spins on ibv_poll_cq but gives the core away (sched_yield) after each empty poll.
// Where threads outnumber cores (a busy-polling server beside its application threads, or
// rxe's own kernel work), it keeps busy's quick reaction without starving whoever shares
// the core; on an otherwise idle core it costs as much CPU as busy.
#pragma once

#include <sched.h>

#include "cq/poll_steps.h"

namespace rdmabench {

class YieldPoller {
 public:
  // Not in the polling study's default sweep (give it with --cq): where each side has a core of
  // its own, as the study runs them, sched_yield returns at once and its rows would be busy's.
  static constexpr StrategyInfo kInfo{
      "yield", "yield", "spin on ibv_poll_cq, sched_yield after each empty poll", 0, {}, false};

  explicit YieldPoller(PollTarget& target) : target_(target) {}

  int wait(std::span<ibv_wc> out) {
    SpinDeadline deadline(target_);
    for (uint32_t spins = 0;; ++spins) {
      const int n = target_.poll(out);
      if (n > 0) return n;
      sched_yield();
      if (const int end = deadline.check(spins); end != 0) return end;
    }
  }
  int try_poll(std::span<ibv_wc> out) { return target_.poll(out); }

 private:
  PollTarget& target_;
};

}  // namespace rdmabench
