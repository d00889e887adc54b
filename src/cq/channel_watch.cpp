#include "cq/channel_watch.h"

#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "core/system_error.h"

namespace rdmabench {

namespace {

// The signal that ends a blocked read: the first real-time one, caught by a handler that does
// nothing and installed without SA_RESTART, so the read returns EINTR.
int wake_signal() {
  return SIGRTMIN;
}

void install_wake_handler() {
  struct sigaction action {};
  action.sa_handler = [](int) {};
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: the read must return
  if (sigaction(wake_signal(), &action, nullptr) != 0)
    throw SystemError("sigaction(SIGRTMIN)", errno, {}, ExitCode::kRuntime);
}

// After an abort, the watch signals again this often until the waiter leaves its wait (a
// signal that came just before the read began is not lost).
constexpr int kAbortedTickMs = 10;

}  // namespace

ChannelWatch::ChannelWatch(std::chrono::milliseconds timeout, int abort_fd)
    : timeout_(timeout),
      tick_(std::max(timeout / 4, std::chrono::milliseconds(1))),
      abort_fd_(abort_fd),
      stop_fd_(eventfd(0, EFD_CLOEXEC)),
      waiter_(pthread_self()) {
  if (stop_fd_ < 0) throw SystemError("eventfd", errno, {}, ExitCode::kRuntime);
  try {
    install_wake_handler();
    thread_ = std::thread([this] { watch(); });
  } catch (...) {
    close(stop_fd_);  // the destructor does not run for a failed constructor
    throw;
  }
}

ChannelWatch::~ChannelWatch() {
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = write(stop_fd_, &one, sizeof one);
  thread_.join();
  close(stop_fd_);
}

void ChannelWatch::end_wait(uint64_t seq) noexcept {
  ended_.store(seq, std::memory_order_release);
  pthread_kill(waiter_, wake_signal());
}

void ChannelWatch::watch() {
  bool aborted = false;
  uint64_t seen = 0;  // the wait last seen, and for how many whole ticks since
  int64_t ticks = 0;
  for (;;) {
    pollfd fds[2] = {{stop_fd_, POLLIN, 0}, {aborted ? -1 : abort_fd_, POLLIN, 0}};
    const int ready = poll(fds, 2, aborted ? kAbortedTickMs : static_cast<int>(tick_.count()));
    if (ready < 0 && errno != EINTR) ::usleep(1000);  // cannot sleep in poll: still watch
    if (fds[0].revents != 0) return;
    if (fds[1].revents != 0) aborted = true;
    const uint64_t seq = seq_.load(std::memory_order_acquire);
    if ((seq & 1) == 0) continue;  // not waiting
    if (seq != seen) {
      seen = seq;
      ticks = 0;
    } else if (ready == 0) {
      ++ticks;
    }
    if (aborted || ticks * tick_ >= timeout_) end_wait(seq);
  }
}

}  // namespace rdmabench
