// What a completion poller works on during one run: one side's CQ and completion channel (or
// the CQs of an open-loop lane with --cq-per-qp, which share one channel and are polled in
// turn), the run's limits, and the counters that explain a strategy (empty polls, wakeups).
#pragma once

#include <infiniband/verbs.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <span>
#include <string>

#include "cq/channel_watch.h"
#include "cq/poll_counts.h"
#include "cq/strategy.h"
#include "verbs/completion_channel.h"
#include "verbs/completion_queue.h"

namespace rdmabench {

struct PollTarget {
  // The CQs polled: one; or, all bound to `channel`, every CQ of a lane, polled in turn.
  std::span<CompletionQueue* const> cqs;
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
  uint32_t qps_on_cq = 1;   // the QPs whose completions come to these CQs (the most, --qps)
  size_t next_cq = 0;       // where the next poll in turn begins (several CQs)

  // What bounds a blocking wait on `channel` (the waiting thread's, made per run with this
  // timeout and abort_fd); strategies that block need it.
  ChannelWatch* watch = nullptr;

  bool abort_requested() const noexcept {
    return abort != nullptr && abort->load(std::memory_order_relaxed);
  }
  // One ibv_poll_cq for up to `batch` completions; counts it when it comes back empty. Over
  // several CQs, one each in turn from where the last left off, until one has completions
  // (each empty one counted).
  int poll(std::span<ibv_wc> out) { return poll_cqs<false>(out); }
  // The same, but over several CQs passing over the quiet ones (armed and found empty since:
  // their next completion comes with an event), for a wait that looks at the channel before
  // it concludes there is nothing: it polls the CQ that woke it, not every connection's. A
  // spin (which reads no channel) polls them all.
  int poll_skipping_quiet(std::span<ibv_wc> out) { return poll_cqs<true>(out); }

  template <bool kSkipQuiet>
  int poll_cqs(std::span<ibv_wc> out) {
    out = out.first(std::min<size_t>(batch, out.size()));
    if (cqs.size() != 1) [[unlikely]]
      return poll_in_turn(out, kSkipQuiet);
    const int n = cqs[0]->poll(out);
    if (n == 0) ++counts.empty_polls;
    return n;
  }
  int poll_in_turn(std::span<ibv_wc> out, bool skip_quiet) {
    for (size_t k = 0; k < cqs.size(); ++k) {
      CompletionQueue& cq = *cqs[next_cq];
      if (++next_cq == cqs.size()) next_cq = 0;
      if (skip_quiet && cq.quiet()) continue;
      if (const int n = cq.poll(out); n > 0) return n;
      ++counts.empty_polls;
      cq.polled_empty();
    }
    return 0;
  }
  // Arms every CQ that is not armed (CompletionQueue::arm), before a blocking wait.
  void arm() {
    for (CompletionQueue* cq : cqs) cq->arm();
  }
  // An event the channel handed over for `cq`: counted on its CompletionQueue, which the next
  // poll begins with. Error(kRuntime) when `cq` is none of these (a channel shared elsewhere).
  void event_taken(const ibv_cq* cq);
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
