// What a completion poller works on during one run: one side's CQ and completion channel, the
// run's limits, and the counters that explain a strategy (empty polls, wakeups).
#pragma once

#include <infiniband/verbs.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <span>
#include <string>

#include "cq/poll_counts.h"
#include "cq/strategy.h"
#include "verbs/completion_channel.h"
#include "verbs/completion_queue.h"

namespace rdmabench {

struct PollTarget {
  CompletionQueue& cq;
  CompletionChannel& channel;
  PollCounts& counts;
  const CqStrategy& strategy;
  std::chrono::milliseconds timeout;         // the longest wait for one completion
  uint32_t batch = 32;                       // completions asked for per ibv_poll_cq (--poll-batch)
  const std::atomic<bool>* abort = nullptr;  // raised: end the run early
  int abort_fd = -1;                         // readable once raised
  const std::string* benchmark = nullptr;    // for messages
  // Raised with `abort` when what ended the wait is the peer's end of sending over a transport
  // that may lose messages (a wait then returns kPeerEnded, not an error).
  const std::atomic<bool>* peer_ended = nullptr;
  bool unreliable = false;  // the transport may lose a message, which a timeout then names
  uint32_t qps_on_cq = 1;   // the QPs whose completions come to this CQ (the most, --qps)

  bool abort_requested() const noexcept {
    return abort != nullptr && abort->load(std::memory_order_relaxed);
  }
  // One ibv_poll_cq for up to `batch` completions; counts it when it comes back empty.
  int poll(std::span<ibv_wc> out) {
    const int n = cq.poll(out.first(std::min<size_t>(batch, out.size())));
    if (n == 0) ++counts.empty_polls;
    return n;
  }
};

// What a wait returns when the peer's end of sending ended it (PollTarget::peer_ended): over a
// transport that may lose messages, the receiver's cue to take what is left and stop counting.
inline constexpr int kPeerEnded = -1;

// Error(kRuntime): no completion within the target's timeout.
[[noreturn]] void throw_completion_timeout(const PollTarget& target);
// Error(kConnection): the run was ended early (the client went away or the server stops).
[[noreturn]] void throw_run_aborted(const std::string& benchmark);
// After a wait gave up: kPeerEnded when the peer ended its sends, else throws the right one of
// the two above.
[[nodiscard]] int wait_ended(const PollTarget& target);

}  // namespace rdmabench
