#include "core/wait_readable.h"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <vector>

#include "core/system_error.h"

namespace rdmabench {

int poll_timeout_ms(std::chrono::steady_clock::time_point deadline) {
  const auto left =
      std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  return static_cast<int>(std::clamp<int64_t>(left.count(), 0, INT32_MAX));
}

int poll_timeout_ms(std::optional<std::chrono::steady_clock::time_point> deadline) {
  return deadline ? poll_timeout_ms(*deadline) : -1;
}

bool wait_readable(int fd, std::chrono::milliseconds timeout, const char* what, int interrupt_fd) {
  // The common path reads no clock: where the TSC is unstable (as in the rxe guest) every
  // clock read is a system call, and this runs once per completion event.
  pollfd fds[2] = {{fd, POLLIN, 0}, {interrupt_fd, POLLIN, 0}};
  const nfds_t count = interrupt_fd >= 0 ? 2 : 1;
  int ready = poll(fds, count, static_cast<int>(timeout.count()));
  if (ready > 0) return fds[0].revents != 0;
  if (ready == 0) return false;
  // Interrupted by a signal: wait on, for at most `timeout` from now.
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    if (errno != EINTR) throw SystemError(what, errno, {}, ExitCode::kRuntime);
    ready = poll(fds, count, poll_timeout_ms(deadline));
    if (ready > 0) return fds[0].revents != 0;
    if (ready == 0 && Clock::now() >= deadline) return false;
  }
}

int first_readable(std::initializer_list<int> fds, std::chrono::milliseconds timeout,
                   const char* what) {
  std::vector<pollfd> polled;
  for (const int fd : fds) polled.push_back({fd, POLLIN, 0});
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const int ready = poll(polled.data(), polled.size(), poll_timeout_ms(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) throw SystemError(what, errno, {}, ExitCode::kRuntime);
    if (ready == 0) return -1;
    for (const pollfd& f : polled)
      if (f.fd >= 0 && (f.revents & (POLLIN | POLLHUP | POLLERR))) return f.fd;
  }
}

}  // namespace rdmabench
