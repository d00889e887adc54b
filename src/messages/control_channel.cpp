#include "messages/control_channel.h"

#include <algorithm>

#include "channel/address_allow_list.h"
#include "channel/socket_error.h"
#include "core/bounded_json.h"
#include "core/error.h"
#include "core/printable_text.h"
#include "core/system_error.h"
#include "messages/control_messages.h"

namespace rdmabench {

void ControlChannel::send(const nlohmann::json& message) {
  try {
    // A string that is not UTF-8 (a peer's text cut inside a character) is sent with U+FFFD in
    // its place: dump() would otherwise throw, and the peer hear nothing.
    std::string line = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    line += '\n';
    if (tls_)
      tls_->send_all(line, timeout_);
    else
      socket_.send_all(line, timeout_);
  } catch (const SystemError&) {
    // A peer that refused and closed while we were still sending said why before it went: its
    // error message waits in the receive buffer, and is the reason to report (raised here as
    // PeerError). Anything else that waits there leaves the send's own failure standing.
    if (const std::optional<std::string> said = last_words())
      parse_control_message(*said, socket_.peer_address());
    throw;
  }
}

std::optional<std::string> ControlChannel::last_words() noexcept {
  try {
    return receive_line(kLastWordsWait, -1);
  } catch (...) {
    return std::nullopt;
  }
}

nlohmann::json ControlChannel::receive(const std::string& expected_type) {
  return receive(timeout_, -1, expected_type);
}

namespace {
// How much of a peer's own error message is shown (ours are one line of under 400 bytes).
constexpr size_t kPeerErrorLimit = 1000;
// How long a finished connection is held open for what it was told to arrive.
constexpr std::chrono::milliseconds kFinishLinger{200};
}  // namespace

nlohmann::json parse_control_message(const std::string& line, const std::string& peer,
                                     const std::string& expected_type) {
  const std::string too_big = json_bounds_problem(line, kMessageBounds);
  if (!too_big.empty())
    throw Error(ExitCode::kConnection, "control channel: the message from " + peer + " " + too_big +
                                           " (not an rdmabench peer?)");
  nlohmann::json message = nlohmann::json::parse(line, nullptr, false);
  if (message.is_discarded() || !message.is_object() || !message.contains("type") ||
      !message["type"].is_string())
    throw Error(ExitCode::kConnection, "control channel: malformed message from " + peer +
                                           " (not an rdmabench peer?): " + peer_excerpt(line, 80));
  if (message["type"] == "error") {
    // A peer's error says which exit code it means; only a failure of its own is taken from
    // it (not the outliers or missed limits that the client alone judges).
    const auto& code = message["exit_code"];
    const bool known = code.is_number_integer() &&
                       ((code.get<int64_t>() >= 1 &&
                         code.get<int64_t>() <= static_cast<int>(ExitCode::kVerification)) ||
                        code.get<int64_t>() == static_cast<int>(ExitCode::kDeviceEvent));
    const auto& text = message["message"];
    throw PeerError(
        known ? static_cast<ExitCode>(code.get<int>()) : ExitCode::kConnection,
        "server: " + (text.is_string() ? peer_excerpt(text.get<std::string>(), kPeerErrorLimit)
                                       : std::string("error")));
  }
  if (!expected_type.empty() && message["type"] != expected_type)
    throw Error(ExitCode::kConnection, "control channel: expected '" + expected_type + "', got '" +
                                           peer_excerpt(message["type"].get<std::string>()) + "'");
  return message;
}

nlohmann::json ControlChannel::receive(std::chrono::milliseconds timeout, int interrupt_fd,
                                       const std::string& expected_type) {
  if (interrupt_fd < 0) interrupt_fd = bound_.stop_fd;
  const Window w = window(timeout);
  try {
    return parse_control_message(receive_line(w.timeout, interrupt_fd), socket_.peer_address(),
                                 expected_type);
  } catch (const ReceiveTimeout&) {
    if (w.until_deadline) throw bound_.over();
    throw;
  }
}

ControlChannel::Window ControlChannel::window(std::chrono::milliseconds timeout) const {
  if (!bound_.deadline) return {timeout};
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(*bound_.deadline -
                                                                 std::chrono::steady_clock::now());
  if (left <= std::chrono::milliseconds(0)) throw bound_.over();
  return {std::min(timeout, left), left <= timeout};
}

std::string ControlChannel::receive_line(std::chrono::milliseconds timeout, int interrupt_fd) {
  return tls_ ? tls_->receive_line(timeout, interrupt_fd)
              : socket_.receive_line(timeout, interrupt_fd);
}

bool ControlChannel::connect_tls(const TlsContext& context, const std::string& host) {
  std::optional<TlsStream> made = TlsStream::connect(socket_, context, host, timeout_);
  if (!made) return false;
  tls_.emplace(std::move(*made));
  return true;
}

nlohmann::json refusal_message(const std::string& peer) {
  return error_message(static_cast<int>(ExitCode::kConnection), AddressAllowList::refusal(peer));
}

void tell_and_finish(TcpSocket& connection, const nlohmann::json& message,
                     std::chrono::milliseconds send_wait) {
  connection.send_all(message.dump() + "\n", send_wait);
  connection.finish(kFinishLinger);
}

void ControlChannel::send_error(int exit_code, const std::string& message) noexcept {
  try {
    send(error_message(exit_code, message));
  } catch (...) {
    // The peer is gone; nothing more to tell it.
  }
}

}  // namespace rdmabench
