// Ends a server's run early when its client goes away or a stop signal arrives, instead of
// letting it wait out --timeout. A watcher thread polls the control socket for a hang-up and
// the stop signals' fd; on either it raises a RunAbort, which the completion loops look at
// where they already look at the clock (busy) or wait on beside the completion channel (event).
#pragma once

#include <atomic>
#include <thread>

namespace rdmabench {

struct RunAbort {
  std::atomic<bool> raised{false};
  int fd = -1;  // an eventfd, readable once raised
};

class RunWatch {
 public:
  // Watches `socket_fd` (hang-up, error) and `stop_fd` (readable) until destroyed.
  RunWatch(int socket_fd, int stop_fd);
  ~RunWatch();
  RunWatch(const RunWatch&) = delete;
  RunWatch& operator=(const RunWatch&) = delete;

  const RunAbort& abort() const noexcept { return abort_; }

 private:
  void watch(int socket_fd, int stop_fd);

  RunAbort abort_;
  int done_fd_;  // an eventfd: written to end the watch
  std::thread thread_;
};

}  // namespace rdmabench
