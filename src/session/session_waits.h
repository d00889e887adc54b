// What bounds the server's waits for one client: the stop signal, and the session's deadline
// (--max-duration, counted from the client's connection over setup, runs and idle time alike).
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/error.h"
#include "messages/control_channel.h"
#include "session/server_caps.h"

namespace rdmabench {

class SessionWaits {
 public:
  using Clock = std::chrono::steady_clock;

  // Bounds every wait on `control` from now on (the bootstraps' too) by the stop signal and
  // the session's deadline (ControlChannel::bound_waits).
  SessionWaits(const ServerCaps& caps, int stop_fd, ControlChannel& control);

  // The client's next message, within `timeout` and the session's deadline: past the deadline,
  // session_over() is raised instead of the channel's timeout.
  nlohmann::json receive(std::chrono::milliseconds timeout,
                         const std::string& expected_type = {}) const;
  // The error that ends a session at its deadline (exit code 2: ask for less).
  Error session_over() const;

  const int stop_fd;
  const std::optional<Clock::time_point> deadline;  // none without --max-duration

 private:
  const ServerCaps& caps_;
  ControlChannel& control_;
};

}  // namespace rdmabench
