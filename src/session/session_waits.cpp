#include "session/session_waits.h"

#include <algorithm>

namespace rdmabench {

namespace {
std::optional<SessionWaits::Clock::time_point> deadline_of(const ServerCaps& caps) {
  if (!caps.max_duration) return std::nullopt;
  return SessionWaits::Clock::now() + *caps.max_duration;
}
}  // namespace

SessionWaits::SessionWaits(const ServerCaps& caps, int stop_fd, ControlChannel& control)
    : stop_fd(stop_fd), deadline(deadline_of(caps)), caps_(caps), control_(control) {
  control_.bound_waits({stop_fd, deadline, [over = session_over()] { return over; }});
}

nlohmann::json SessionWaits::receive(std::chrono::milliseconds timeout,
                                     const std::string& expected_type) const {
  return control_.receive(timeout, stop_fd, expected_type);
}

Error SessionWaits::session_over() const {
  return Error(ExitCode::kUsage, "this server's --max-duration (" + caps_.describe() +
                                     ") ended the session: this client has used its time; "
                                     "ask for less, or ask its operator");
}

}  // namespace rdmabench
