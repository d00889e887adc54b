// Completion queue (ibv_cq), optionally bound to a completion channel for event mode.
#pragma once

#include <infiniband/verbs.h>

#include <span>

#include "verbs/completion_channel.h"
#include "verbs/context.h"
#include "verbs/verbs_error.h"

namespace rdmabench {

class CompletionQueue {
 public:
  // On completion vector `vector` (0 to the context's completion_vectors() less one).
  CompletionQueue(const Context& context, int depth, CompletionChannel* channel, int vector = 0);
  // A CQ made elsewhere and destroyed there (a unit test's fake, whose context's ops answer
  // ibv_poll_cq): this object polls, arms and acks it, and never destroys it.
  static CompletionQueue borrowing(ibv_cq* cq) { return CompletionQueue(cq); }
  ~CompletionQueue();
  CompletionQueue(const CompletionQueue&) = delete;
  CompletionQueue& operator=(const CompletionQueue&) = delete;

  // Non-blocking; returns how many completions were written to `out`.
  int poll(std::span<ibv_wc> out) {
    const int n = ibv_poll_cq(cq_, static_cast<int>(out.size()), out.data());
    if (n < 0) throw VerbsError("ibv_poll_cq", EIO, {}, ExitCode::kRuntime);
    return n;
  }

  // Requests an event for the next completion (ibv_req_notify_cq), unless one is requested
  // already and its event not yet taken: until then the device is armed, or its event waits in
  // the channel, and either wakes the waiter (a lane of many CQs arms only those that fired).
  void arm() {
    if (armed_) return;
    check_call(ibv_req_notify_cq(cq_, 0), "ibv_req_notify_cq", {}, ExitCode::kRuntime);
    armed_ = true;
  }

  // Counts an event taken from the channel (the CQ is no longer armed, nor quiet); acks them in
  // batches (ibv_ack_cq_events takes a mutex, so acking each one would cost more than the event
  // itself).
  void event_received() {
    armed_ = false;
    quiet_ = false;
    if (++unacked_events_ >= kAckBatch) flush_acks();
  }

  // After a poll came back empty: the CQ is quiet if it was armed before that poll, for then
  // every completion since comes with an event; one of many CQs polled in turn is passed over
  // until its event is taken.
  void polled_empty() noexcept { quiet_ = armed_; }
  bool quiet() const noexcept { return quiet_; }

  // CQ moderation (ibv_modify_cq): an event once `count` completions are in or `period_us`
  // passed. Throws VerbsError(kUsage) where the device refuses it.
  void moderate(uint16_t count, uint16_t period_us);

  ibv_cq* native() const noexcept { return cq_; }

 private:
  static constexpr unsigned kAckBatch = 64;
  explicit CompletionQueue(ibv_cq* borrowed) : cq_(borrowed), owned_(false) {}
  void flush_acks() noexcept;
  ibv_cq* cq_;
  bool owned_ = true;
  unsigned unacked_events_ = 0;
  bool armed_ = false;  // arm() asked for an event whose taking event_received() has not counted
  bool quiet_ = false;  // armed and polled empty since (polled_empty)
};

}  // namespace rdmabench
