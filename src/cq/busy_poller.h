// busy: spins on ibv_poll_cq (--poll-batch entries per call). Lowest latency; a core per side.
#pragma once

#include "cq/poll_steps.h"

namespace rdmabench {

class BusyPoller {
 public:
  static constexpr StrategyInfo kInfo{"busy", "busy", "spin on ibv_poll_cq", 0, {}, false, "busy"};

  explicit BusyPoller(PollTarget& target) : target_(target) {}

  int wait(std::span<ibv_wc> out) {
    SpinDeadline deadline(target_);
    for (uint32_t spins = 0;; ++spins) {
      const int n = target_.poll(out);
      if (n > 0) return n;
      if (const int end = deadline.check(spins); end != 0) return end;
    }
  }
  int try_poll(std::span<ibv_wc> out) { return target_.poll(out); }

 private:
  PollTarget& target_;
};

}  // namespace rdmabench
