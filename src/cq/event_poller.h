// event: the completion channel and a blocking wait; polls, arms, polls again, sleeps.
#pragma once

#include "cq/poll_steps.h"

namespace rdmabench {

class EventPoller {
 public:
  static constexpr StrategyInfo kInfo{
      "event", "event", "arm the CQ and block on its completion channel", 0, {}, true, "event"};

  explicit EventPoller(PollTarget& target) : target_(target) { prepare_blocking(target); }

  int wait(std::span<ibv_wc> out) {
    for (;;) {
      int n = target_.poll_skipping_quiet(out);
      if (n > 0) return n;
      n = arm_and_block(target_, out);
      if (n != 0) return n;
    }
  }
  int try_poll(std::span<ibv_wc> out) { return target_.poll(out); }

 private:
  PollTarget& target_;
};

}  // namespace rdmabench
