// SIGINT/SIGTERM as a readable file descriptor (signalfd), so every blocking wait can watch for
// a stop request and nothing needs a global flag.
#pragma once

#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "core/system_error.h"

namespace rdmabench {

class StopSignals {
 public:
  StopSignals() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigprocmask(SIG_BLOCK, &set, nullptr);
    fd_ = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
    if (fd_ < 0) throw SystemError("signalfd", errno, {}, ExitCode::kNoDevice);
  }
  ~StopSignals() { close(fd_); }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  int fd() const noexcept { return fd_; }
  // True (and the signal consumed) when a stop was requested since the last call.
  bool pending() const noexcept {
    signalfd_siginfo info{};
    return read(fd_, &info, sizeof(info)) == static_cast<ssize_t>(sizeof(info));
  }

 private:
  int fd_;
};

}  // namespace rdmabench
