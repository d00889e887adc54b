#include "cq/poll_target.h"

#include "core/error.h"

namespace rdmabench {

void throw_completion_timeout(std::chrono::milliseconds timeout, const std::string& benchmark) {
  throw Error(ExitCode::kRuntime, "no completion within " + std::to_string(timeout.count()) +
                                      " ms in " + benchmark +
                                      " (peer gone or stalled? see --timeout)");
}

void throw_run_aborted(const std::string& benchmark) {
  throw Error(ExitCode::kConnection,
              benchmark + " ended early: the client went away or the server is stopping");
}

void throw_wait_ended(const PollTarget& target) {
  if (target.peer_ended != nullptr && target.peer_ended->load(std::memory_order_relaxed))
    throw PeerEndedSending{};
  if (target.abort_requested()) throw_run_aborted(*target.benchmark);
  throw_completion_timeout(target.timeout, *target.benchmark);
}

}  // namespace rdmabench
