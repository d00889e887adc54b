// dynamic: busy polling whose batch (the completions one ibv_poll_cq asks for) is set by
// perftest's dynamic CQE polling (26.04, --dynamic_cqe_poll; b6164bc in its history,
// poll_cq_adaptive in src/perftest_resources.c). The rule, as perftest has it: the batch starts
// at its ceiling; a poll that fills it, below the ceiling, sets it to (batch + got) / 2 (which is
// the batch itself: perftest's growth never grows); a poll that brings less than 85 % of it
// sets it to (batch + got) / 2, at least 16, and an empty poll counts so; ten polls in a row
// that each bring as many as the one before end the adapting, and so do the first
// max(3 x QPs, 1000) completions (perftest's rule for a timed run; by iterations it adapts for
// iters / 4 of them, at most 16384). Where ours differs: the ceiling is --poll-batch (at most
// 64), where perftest's is 1024.
#pragma once

#include <algorithm>

#include "cq/poll_steps.h"

namespace rdmabench {

// The rule alone, apart from the CQ: the batch the next poll asks for, and what a poll that
// brought `got` completions makes of it.
class DynamicBatch {
 public:
  static constexpr uint32_t kFloor = 16;
  static constexpr uint32_t kStableRounds = 10;
  static constexpr double kShrinkBelow = 0.85;
  static constexpr uint64_t kLeastAdapting = 1000;

  // Starts at `ceiling`; adapts for the first max(3 x qps, 1000) completions.
  DynamicBatch(uint32_t ceiling, uint32_t qps)
      : size_(ceiling),
        ceiling_(ceiling),
        adapt_for_(std::max<uint64_t>(uint64_t{3} * qps, kLeastAdapting)) {}

  uint32_t size() const noexcept { return size_; }
  bool adapting() const noexcept { return adapting_ && taken_ < adapt_for_; }
  void learn(int got) noexcept {
    if (!adapting()) return;
    const uint32_t n = got > 0 ? static_cast<uint32_t>(got) : 0;
    taken_ += n;
    if (n == size_ && size_ < ceiling_) {
      size_ = std::min((size_ + n) / 2, ceiling_);
      stable_ = 0;
    } else if (n < size_ * kShrinkBelow) {
      if (size_ > kFloor) {
        size_ = std::max((size_ + n) / 2, kFloor);
        stable_ = 0;
      }
    } else if (n == last_) {
      if (++stable_ >= kStableRounds) adapting_ = false;
    } else {
      stable_ = 0;
    }
    last_ = n;
  }

 private:
  uint32_t size_, ceiling_;
  uint64_t adapt_for_;
  uint64_t taken_ = 0;
  uint32_t last_ = 0, stable_ = 0;
  bool adapting_ = true;
};

class DynamicPoller {
 public:
  static constexpr StrategyInfo kInfo{
      "dynamic", "dynamic", "spin on ibv_poll_cq, its batch set by perftest 26.04's rule", 0, {},
      false,     "dynamic"};

  explicit DynamicPoller(PollTarget& target)
      : target_(target), rule_(target.batch, target.qps_on_cq) {}

  int wait(std::span<ibv_wc> out) {
    SpinDeadline deadline(target_);
    for (uint32_t spins = 0;; ++spins) {
      if (const int n = poll(out); n > 0) return n;
      if (const int end = deadline.check(spins); end != 0) return end;
    }
  }
  int try_poll(std::span<ibv_wc> out) { return poll(out); }

 private:
  int poll(std::span<ibv_wc> out) {
    target_.batch = rule_.size();
    const int n = target_.poll(out);
    rule_.learn(n);
    return n;
  }

  PollTarget& target_;
  DynamicBatch rule_;
};

}  // namespace rdmabench
