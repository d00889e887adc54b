// A device's asynchronous events for the life of one endpoint, watched on a thread of its own
// that sleeps in poll() until one comes, so that nothing of it is in a run's path. A fatal one
// (verbs/async_event.h: the port down, a QP or CQ in error, the device dead) is kept, and
// `on_fatal` runs at once: the endpoint moves its QPs to the error state, which flushes every
// outstanding work request, so whatever waits on a completion, busy or blocked, wakes within
// its next poll; the run's error is then the event's (device_event_error). The informational
// ones are kept per run for its row. Events queued before the endpoint (a shared rdma_cm
// context's, from an earlier client) are read first and left alone.
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/error.h"
#include "verbs/async_event.h"
#include "verbs/context.h"

namespace rdmabench {

class AsyncEventWatch {
 public:
  AsyncEventWatch(const Context& context, std::function<void()> on_fatal);
  ~AsyncEventWatch();
  AsyncEventWatch(const AsyncEventWatch&) = delete;
  AsyncEventWatch& operator=(const AsyncEventWatch&) = delete;

  // A run begins: the events from now on are its own.
  void begin_run();
  // The first fatal event since the watch began, if any.
  std::optional<AsyncEvent> fatal() const;
  // The texts of this run's events so far, at most `most`, each at most `longest` long.
  std::vector<std::string> run_event_texts(size_t most, size_t longest) const;

 private:
  void watch();
  void take_queued();

  const Context& context_;
  std::function<void()> on_fatal_;
  int done_fd_;  // an eventfd: written to end the watch
  mutable std::mutex lock_;
  std::vector<AsyncEvent> run_events_;
  std::optional<AsyncEvent> fatal_;
  std::thread thread_;
};

// What a fatal QP event most likely means where the device is iWARP's and the run sends into
// the peer's posted receives (`receives`): iWARP has no RNR retry, so a send that finds no
// receive terminates the connection. Empty elsewhere.
std::string receiver_advice(bool iwarp, bool receives);

// The error a fatal event makes of a run: exit code kDeviceEvent, naming the event, what it
// concerns, the device and the benchmark, and what to do: `advice` (receiver_advice) when it
// has any, else the port's state for a port that went down, else that the run cannot go on.
Error device_event_error(const AsyncEvent& event, const std::string& device,
                         const std::string& benchmark, const std::string& advice);

}  // namespace rdmabench
