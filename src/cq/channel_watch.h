// The deadline of a blocking wait on completion channels, kept by a thread beside the waiter.
//
// A side that blocks for completions waits in read(2) on the channel: one system call an
// event, as perftest's ibv_get_cq_event. A poll(2) with a timeout before each read would bound
// the wait itself, at a second system call an event (the deterministic gate, send lat 2 B with
// events: 96.34 against 88.08 us a round trip on siw, 133.0 against 124.9 on rxe, 2026-12-05).
// Here the bound is this object's thread: it sleeps in poll(2) on the run's abort descriptor,
// and when the waiter has been in one wait for the timeout, or the run is aborted, it ends the
// read with a signal (EINTR). No peer can extend it: the watch reads only the waiter's own
// count of waits and its clock.
#pragma once

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "verbs/completion_channel.h"

namespace rdmabench {

class ChannelWatch {
 public:
  // Watches the waits of the thread that makes it: each may last `timeout`; `abort_fd`
  // (-1: none) ends them as soon as it is readable. Starts the watching thread.
  ChannelWatch(std::chrono::milliseconds timeout, int abort_fd);
  ~ChannelWatch();
  ChannelWatch(const ChannelWatch&) = delete;
  ChannelWatch& operator=(const ChannelWatch&) = delete;

  // Blocks until `channel` (read_blocking) has an event: takes it and returns the CQ it is for.
  // nullptr when the watch ended the wait (the timeout passed, or the abort descriptor became
  // readable); any other signal waits on. Only the thread that made the watch calls it.
  ibv_cq* wait(CompletionChannel& channel) {
    const uint64_t mine = waits_ + 1;  // odd while waiting
    waits_ = mine + 1;
    seq_.store(mine, std::memory_order_release);
    ibv_cq* taken = nullptr;
    for (;;) {
      if ((taken = channel.take_event_blocking()) != nullptr) break;
      if (ended_.load(std::memory_order_acquire) == mine) break;  // else another signal
    }
    seq_.store(mine + 1, std::memory_order_release);
    return taken;
  }

  // How long a wait may last before the watch ends it: the timeout, up to a quarter more.
  std::chrono::milliseconds tick() const noexcept { return tick_; }

 private:
  void watch();
  // Ends wait `seq` (the waiter's count, odd) with a signal.
  void end_wait(uint64_t seq) noexcept;

  std::chrono::milliseconds timeout_;
  std::chrono::milliseconds tick_;
  int abort_fd_;
  int stop_fd_;
  pthread_t waiter_;
  uint64_t waits_ = 0;              // the waiter's own count (twice its waits)
  std::atomic<uint64_t> seq_{0};    // odd while the waiter is in wait number (seq + 1) / 2
  std::atomic<uint64_t> ended_{0};  // the seq of the last wait the watch ended
  std::thread thread_;
};

}  // namespace rdmabench
