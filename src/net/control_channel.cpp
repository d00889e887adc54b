#include "net/control_channel.h"

#include "verbs/error.h"

namespace rdmabench {

void ControlChannel::send(const nlohmann::json& message) {
  socket_.send_all(message.dump() + "\n", timeout_);
}

nlohmann::json ControlChannel::receive(const std::string& expected_type) {
  return receive(timeout_, -1, expected_type);
}

nlohmann::json ControlChannel::receive(std::chrono::milliseconds timeout, int interrupt_fd,
                                       const std::string& expected_type) {
  const std::string line = socket_.receive_line(timeout, interrupt_fd);
  nlohmann::json message = nlohmann::json::parse(line, nullptr, false);
  if (message.is_discarded() || !message.is_object() || !message.contains("type"))
    throw Error(ExitCode::kConnection, "control channel: malformed message from " +
                                           socket_.peer_address() +
                                           " (not an rdmabench peer?): " + line.substr(0, 80));
  if (message["type"] == "error") {
    const int code = message.value("exit_code", static_cast<int>(ExitCode::kConnection));
    throw Error(static_cast<ExitCode>(code),
                "server: " + message.value("message", std::string("error")));
  }
  if (!expected_type.empty() && message["type"] != expected_type)
    throw Error(ExitCode::kConnection, "control channel: expected '" + expected_type + "', got '" +
                                           message["type"].get<std::string>() + "'");
  return message;
}

void ControlChannel::send_error(int exit_code, const std::string& message) noexcept {
  try {
    send({{"type", "error"}, {"exit_code", exit_code}, {"message", message}});
  } catch (...) {
    // The peer is gone; nothing more to tell it.
  }
}

}  // namespace rdmabench
