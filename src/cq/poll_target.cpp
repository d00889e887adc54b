#include "cq/poll_target.h"

#include "core/error.h"

namespace rdmabench {

void PollTarget::event_taken(const ibv_cq* cq) {
  for (size_t k = 0; k < cqs.size(); ++k)
    if (cqs[k]->native() == cq) {
      cqs[k]->event_received();
      next_cq = k;
      return;
    }
  throw Error(ExitCode::kRuntime, "a completion event for a CQ that " + *benchmark +
                                      " does not poll came on its channel");
}

void throw_completion_timeout(const PollTarget& target) {
  const std::string why =
      target.unreliable
          ? " (over an unreliable transport a lost message is never resent, and a ping-pong "
            "waits for it; else the peer is gone or stalled: see --timeout)"
          : " (peer gone or stalled? see --timeout)";
  throw Error(ExitCode::kRuntime, "no completion within " + std::to_string(target.timeout.count()) +
                                      " ms in " + *target.benchmark + why);
}

void throw_run_aborted(const std::string& benchmark) {
  throw Error(ExitCode::kConnection,
              benchmark + " ended early: the client went away or the server is stopping");
}

int wait_ended(const PollTarget& target) {
  if (target.peer_ended != nullptr && target.peer_ended->load(std::memory_order_relaxed))
    return kPeerEnded;
  if (target.abort_requested()) throw_run_aborted(*target.benchmark);
  throw_completion_timeout(target);
}

}  // namespace rdmabench
