// epoll: the completion channel's non-blocking fd in an epoll set, waited on with epoll_wait,
// the way event-loop servers integrate verbs with their other descriptors. The set is made
// when the poller is (once per run, outside the timed windows).
#pragma once

#include <sys/epoll.h>
#include <unistd.h>

#include <cerrno>

#include "core/system_error.h"
#include "cq/poll_steps.h"

namespace rdmabench {

class EpollPoller {
 public:
  static constexpr StrategyInfo kInfo{
      "epoll", "epoll", "the channel's fd in an epoll set, as event loops do", 0, {},
      true,    "epoll"};

  explicit EpollPoller(PollTarget& target)
      : target_(target), epoll_fd_(epoll_create1(EPOLL_CLOEXEC)) {
    check_system(epoll_fd_ < 0 ? -1 : 0, "epoll_create1", {}, ExitCode::kNoDevice);
    target.channel.read_blocking(false);  // epoll says when to read
    add(target.channel.fd());
    if (target.abort_fd >= 0) add(target.abort_fd);
  }
  ~EpollPoller() { close(epoll_fd_); }
  EpollPoller(const EpollPoller&) = delete;
  EpollPoller& operator=(const EpollPoller&) = delete;

  int wait(std::span<ibv_wc> out) {
    for (;;) {
      int n = target_.poll_skipping_quiet(out);
      if (n > 0) return n;
      target_.arm();
      n = target_.poll_skipping_quiet(out);
      if (n > 0) return n;
      const ibv_cq* woken;
      while ((woken = target_.channel.try_take_event()) == nullptr)
        if (const int end = wait_ready(); end != 0) return end;
      ++target_.counts.wakeups;
      target_.event_taken(woken);
    }
  }
  int try_poll(std::span<ibv_wc> out) { return target_.poll(out); }

 private:
  void add(int fd) {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = fd;
    check_system(epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev), "epoll_ctl(EPOLL_CTL_ADD)", {},
                 ExitCode::kNoDevice);
  }
  // Until the channel's fd is readable (0), or kPeerEnded; throws on timeout or abort. A signal
  // (EINTR) waits on.
  int wait_ready() {
    epoll_event ev[2];
    int ready;
    do {
      ready = epoll_wait(epoll_fd_, ev, 2, static_cast<int>(target_.timeout.count()));
    } while (ready < 0 && errno == EINTR);
    if (ready < 0) throw SystemError("epoll_wait", errno, {}, ExitCode::kRuntime);
    if (ready == 0 || target_.abort_requested()) return wait_ended(target_);
    return 0;
  }

  PollTarget& target_;
  int epoll_fd_;
};

}  // namespace rdmabench
