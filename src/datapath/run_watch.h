// Ends a run early: when a server's client goes away or a stop signal arrives (RunWatch), or
// when one of a side's threads failed (ThreadTeam), instead of letting the others wait out
// --timeout. The completion loops look at the flag where they already look at the clock (busy)
// or wait on its fd beside the completion channel (event).
#pragma once

#include <atomic>
#include <chrono>
#include <optional>
#include <thread>

namespace rdmabench {

class RunAbort {
 public:
  RunAbort();  // owns an eventfd, readable once raised
  ~RunAbort();
  RunAbort(const RunAbort&) = delete;
  RunAbort& operator=(const RunAbort&) = delete;

  void raise() const noexcept;
  // The peer has ended its sends (over a transport that may lose messages): raises the flag
  // with this reason, which ends the receivers' waits without an error.
  void raise_peer_ended() const noexcept;
  mutable std::atomic<bool> raised{false};  // raising is what a const watcher may do
  mutable std::atomic<bool> peer_ended{false};
  mutable std::atomic<bool> deadline_passed{false};  // RunWatch's deadline raised it
  int fd = -1;
};

class RunWatch {
 public:
  // Watches `socket_fd` (hang-up, error) and `stop_fd` (readable) until destroyed, and raises
  // `abort` on either. With `input_ends_peer`, a message arriving on the socket (the peer's
  // "finished": it has ended its sends) raises abort.raise_peer_ended() once, and the watch
  // goes on for the rest.
  // With a `deadline` (serve --max-duration), passing it raises abort with deadline_passed.
  RunWatch(int socket_fd, int stop_fd, const RunAbort& abort, bool input_ends_peer = false,
           std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);
  ~RunWatch();
  RunWatch(const RunWatch&) = delete;
  RunWatch& operator=(const RunWatch&) = delete;

 private:
  void watch(int socket_fd, int stop_fd, bool input_ends_peer);

  const RunAbort& abort_;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  int done_fd_;  // an eventfd: written to end the watch
  std::thread thread_;
};

}  // namespace rdmabench
