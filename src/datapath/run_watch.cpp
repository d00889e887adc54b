#include "datapath/run_watch.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>

#include "core/system_error.h"
#include "core/wait_readable.h"

namespace rdmabench {

namespace {
int make_eventfd() {
  const int fd = eventfd(0, EFD_CLOEXEC);
  check_system(fd < 0 ? -1 : 0, "eventfd", {}, ExitCode::kNoDevice);
  return fd;
}

void signal_eventfd(int fd) noexcept {
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = write(fd, &one, sizeof(one));  // cannot fail for 1
}
}  // namespace

RunAbort::RunAbort() : fd(make_eventfd()) {}

RunAbort::~RunAbort() {
  close(fd);
}

void RunAbort::raise_peer_ended() const noexcept {
  peer_ended.store(true, std::memory_order_release);
  raise();
}

void RunAbort::raise() const noexcept {
  if (!raised.exchange(true, std::memory_order_relaxed)) signal_eventfd(fd);
}

RunWatch::RunWatch(int socket_fd, int stop_fd, const RunAbort& abort, bool input_ends_peer,
                   std::optional<std::chrono::steady_clock::time_point> deadline)
    : abort_(abort), deadline_(deadline), done_fd_(make_eventfd()) {
  thread_ = std::thread(
      [this, socket_fd, stop_fd, input_ends_peer] { watch(socket_fd, stop_fd, input_ends_peer); });
}

RunWatch::~RunWatch() {
  signal_eventfd(done_fd_);
  thread_.join();
  close(done_fd_);
}

void RunWatch::watch(int socket_fd, int stop_fd, bool input_ends_peer) {
  // POLLIN is asked for on the socket only when the peer's next message ("finished") says it
  // ended its sends; otherwise it is no reason to stop, and the socket is read after the run.
  const short socket_events = static_cast<short>(POLLRDHUP | (input_ends_peer ? POLLIN : 0));
  pollfd fds[3] = {{done_fd_, POLLIN, 0}, {socket_fd, socket_events, 0}, {stop_fd, POLLIN, 0}};
  for (;;) {
    const int ready = poll(fds, stop_fd >= 0 ? 3 : 2, poll_timeout_ms(deadline_));
    if (ready < 0) {
      if (errno == EINTR) continue;
      return;  // cannot watch; the run still ends at its --timeout
    }
    if (ready == 0) {  // the deadline passed
      abort_.deadline_passed.store(true, std::memory_order_relaxed);
      abort_.raise();
      return;
    }
    if (fds[0].revents != 0) return;
    if (fds[1].revents == POLLIN) {  // the peer ended its sends (a hang-up comes with more)
      abort_.raise_peer_ended();
      fds[1].events = POLLRDHUP;
      continue;
    }
    if (fds[1].revents != 0 || (stop_fd >= 0 && fds[2].revents != 0)) {
      abort_.raise();
      return;
    }
  }
}

}  // namespace rdmabench
