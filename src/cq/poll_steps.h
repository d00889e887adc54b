// The steps the strategies are built from: spinning with a deadline, and arming then blocking.
#pragma once

#include <optional>
#include <span>

#include "core/clock.h"
#include "core/error.h"
#include "cq/poll_target.h"

namespace rdmabench {

// For spinning loops: looks at the abort flag once every 1024 turns and reads the clock once
// every 16384 only (where the clock source has no vDSO a read is a system call: a busy
// client of siw's write bw 64 KiB made 4.1 to 5.6 a message at every 1024, perftest's spin none).
// check() is 0 to spin on, or kPeerEnded. `Clock` is anything with now_ns() (a test's).
template <typename Clock = MonotonicClock>
class SpinDeadline {
 public:
  static constexpr uint32_t kAbortEvery = 1024;   // turns between looks at the abort flag
  static constexpr uint32_t kClockEvery = 16384;  // turns between clock reads
  explicit SpinDeadline(const PollTarget& target, Clock clock = {})
      : target_(target), clock_(clock) {}
  int check(uint32_t spins) {
    if ((spins & (kAbortEvery - 1)) != kAbortEvery - 1) return 0;
    if (target_.abort_requested()) return wait_ended(target_);
    if ((spins & (kClockEvery - 1)) != kClockEvery - 1) return 0;
    const uint64_t t = clock_.now_ns();
    if (deadline_ == 0)
      deadline_ = t + static_cast<uint64_t>(target_.timeout.count()) * 1'000'000;
    else if (t > deadline_)
      throw_completion_timeout(target_);
    return 0;
  }

 private:
  const PollTarget& target_;
  Clock clock_;
  uint64_t deadline_ = 0;
};

// Polls until a completion or until `budget_ns` from `start_ns` is spent (the clock is read
// every 8 polls, the abort flag with it); returns 0 when the budget ran out, kPeerEnded when
// the peer ended its sends.
inline int spin_within(PollTarget& target, std::span<ibv_wc> out, uint64_t start_ns,
                       uint64_t budget_ns) {
  for (uint32_t spins = 1;; ++spins) {
    const int n = target.poll(out);
    if (n > 0) return n;
    if ((spins & 7) != 0) continue;
    if (now_ns() - start_ns >= budget_ns) return 0;
    if (target.abort_requested()) return wait_ended(target);
  }
}

// What a strategy that blocks in arm_and_block does once, as its poller is made (per run,
// outside the timed windows): the channel read blocking, and a watch to bound those reads.
inline void prepare_blocking(PollTarget& target) {
  if (target.watch == nullptr)
    throw Error(ExitCode::kInternal, "a blocking wait on the completion channel without its watch");
  target.channel.read_blocking(true);
}

// Makes `watch` to bound the calling thread's blocking waits when the targets' strategy blocks,
// and hands it to each target (none for a strategy that never blocks): what prepare_blocking
// then finds. Per run, by the thread that will wait.
inline void watch_blocking_waits(std::optional<ChannelWatch>& watch,
                                 std::span<PollTarget> targets) {
  if (strategy_info(targets.front().strategy).blocks)
    watch.emplace(targets.front().timeout, targets.front().abort_fd);
  for (PollTarget& t : targets) t.watch = watch ? &*watch : nullptr;
}

// Arms the CQ (every CQ not armed, over several), polls once more (so a completion that
// raced the arming is not lost), then blocks on the completion channel. Returns the
// completions of that poll, 0 after a wakeup (the caller polls again), or kPeerEnded.
inline int arm_and_block(PollTarget& target, std::span<ibv_wc> out) {
  target.arm();
  const int n = target.poll_skipping_quiet(out);
  if (n > 0) return n;
  const ibv_cq* woken = target.watch->wait(target.channel);
  if (woken == nullptr) return wait_ended(target);
  ++target.counts.wakeups;
  target.event_taken(woken);
  return 0;
}

}  // namespace rdmabench
