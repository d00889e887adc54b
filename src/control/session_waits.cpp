#include "control/session_waits.h"

#include <algorithm>

#include "control/socket_error.h"

namespace rdmabench {

namespace {
std::optional<SessionWaits::Clock::time_point> deadline_of(const ServerCaps& caps) {
  if (!caps.max_duration) return std::nullopt;
  return SessionWaits::Clock::now() + *caps.max_duration;
}
}  // namespace

SessionWaits::SessionWaits(const ServerCaps& caps, int stop_fd)
    : stop_fd(stop_fd), deadline(deadline_of(caps)), caps_(caps) {}

nlohmann::json SessionWaits::receive(ControlChannel& control, std::chrono::milliseconds timeout,
                                     const std::string& expected_type) const {
  bool until_deadline = false;
  if (deadline) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now());
    if (left <= std::chrono::milliseconds(0)) throw session_over();
    until_deadline = left <= timeout;
    timeout = std::min(timeout, left);
  }
  try {
    return control.receive(timeout, stop_fd, expected_type);
  } catch (const ReceiveTimeout&) {
    if (until_deadline) throw session_over();
    throw;
  }
}

Error SessionWaits::session_over() const {
  return Error(ExitCode::kUsage, "this server's --max-duration (" + caps_.describe() +
                                     ") ended the session: this client has used its time; "
                                     "ask for less, or ask its operator");
}

}  // namespace rdmabench
