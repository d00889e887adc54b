#include "verbs/wait_readable.h"

#include <poll.h>

#include <cerrno>

#include "verbs/error.h"

namespace rdmabench {

bool wait_readable(int fd, std::chrono::milliseconds timeout, const char* what) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    pollfd pfd{fd, POLLIN, 0};
    const int ready = poll(&pfd, 1, static_cast<int>(std::max<int64_t>(left.count(), 0)));
    if (ready > 0) return true;
    if (ready < 0 && errno != EINTR) throw VerbsError(what, errno, {}, ExitCode::kRuntime);
    if (ready == 0 && Clock::now() >= deadline) return false;
  }
}

}  // namespace rdmabench
