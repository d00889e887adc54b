// The two ways of harvesting completions, as compile-time policies for the hot loops.
// Both return at least one completion or throw Error(kRuntime) once `timeout` passes with none.
#pragma once

#include <infiniband/verbs.h>

#include <chrono>
#include <span>
#include <string>

#include "engine/clock.h"
#include "engine/endpoint.h"
#include "verbs/error.h"

namespace rdmabench {

[[noreturn]] void throw_completion_timeout(std::chrono::milliseconds timeout, const TestSpec& spec);
[[noreturn]] void throw_completion_error(const ibv_wc& wc, const TestSpec& spec);
// The run was ended early (Endpoint::abort): the client went away or the server is stopping.
[[noreturn]] void throw_run_aborted(const TestSpec& spec);

inline void check_completion(const ibv_wc& wc, const TestSpec& spec) {
  if (wc.status != IBV_WC_SUCCESS) [[unlikely]]
    throw_completion_error(wc, spec);
}

// Spins on ibv_poll_cq.
class BusyPoller {
 public:
  BusyPoller(Endpoint& ep, std::chrono::milliseconds timeout) : ep_(ep), timeout_(timeout) {}

  int wait(std::span<ibv_wc> out) {
    uint64_t deadline = 0;
    for (uint32_t spins = 0;; ++spins) {
      const int n = ep_.cq().poll(out);
      if (n > 0) return n;
      if ((spins & 0x3ff) == 0x3ff) {  // look at the clock only now and then
        if (ep_.abort_requested()) throw_run_aborted(ep_.spec());
        const uint64_t t = now_ns();
        if (deadline == 0)
          deadline = t + static_cast<uint64_t>(timeout_.count()) * 1'000'000;
        else if (t > deadline)
          throw_completion_timeout(timeout_, ep_.spec());
      }
    }
  }
  int try_poll(std::span<ibv_wc> out) { return ep_.cq().poll(out); }

 private:
  Endpoint& ep_;
  std::chrono::milliseconds timeout_;
};

// Arms the CQ, re-polls (so a completion that raced the arming is not lost), then blocks on
// the completion channel; events are acked in batches.
class EventPoller {
 public:
  EventPoller(Endpoint& ep, std::chrono::milliseconds timeout)
      : ep_(ep), channel_(*ep.completion_channel()), timeout_(timeout) {}

  int wait(std::span<ibv_wc> out) {
    for (;;) {
      int n = ep_.cq().poll(out);
      if (n > 0) return n;
      ep_.cq().arm();
      n = ep_.cq().poll(out);
      if (n > 0) return n;
      if (!channel_.wait(timeout_, ep_.abort_fd())) {
        if (ep_.abort_requested()) throw_run_aborted(ep_.spec());
        throw_completion_timeout(timeout_, ep_.spec());
      }
      ep_.cq().event_received();
    }
  }
  int try_poll(std::span<ibv_wc> out) { return ep_.cq().poll(out); }

 private:
  Endpoint& ep_;
  CompletionChannel& channel_;
  std::chrono::milliseconds timeout_;
};

}  // namespace rdmabench
