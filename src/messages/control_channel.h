// The client/server control channel: one JSON object per line over TCP.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "channel/tcp_socket.h"
#include "channel/tls_stream.h"
#include "core/error.h"

namespace rdmabench {

// The peer's own {"type":"error"} message, raised (with the exit code it carries).
class PeerError : public Error {
 public:
  using Error::Error;
};

// One line from the peer as a message: a JSON object with a string "type". A peer's
// {"type":"error"} is raised as an Error with its exit code; with `expected_type`, any other
// type is a protocol error. Malformed input is an Error(kConnection) quoting it, escaped.
nlohmann::json parse_control_message(const std::string& line, const std::string& peer,
                                     const std::string& expected_type = {});

// The "error" message (control_messages.h) for a connection from an address --allow refuses
// (exit 4, saying so).
nlohmann::json refusal_message(const std::string& peer);

// Sends `message` on a connection that is no control channel (a client refused, or told the
// server is busy), then finishes it: nothing more it sends is read, and what it was told
// arrives (TcpSocket::finish, for at most 200 ms). Throws when the peer is gone.
void tell_and_finish(TcpSocket& connection, const nlohmann::json& message,
                     std::chrono::milliseconds send_wait);

class ControlChannel {
 public:
  ControlChannel(TcpSocket socket, std::chrono::milliseconds timeout,
                 std::optional<TlsStream> tls = std::nullopt)
      : socket_(std::move(socket)), timeout_(timeout), tls_(std::move(tls)) {}

  // Sends one message. When the send fails because the peer closed after saying why (its
  // {"type":"error"}), that reason is raised, as receive would (PeerError).
  void send(const nlohmann::json& message);
  // Receives the next message. A {"type":"error"} message from the peer is raised as an Error
  // with the exit code it carries. With `expected_type`, any other type is a protocol error.
  nlohmann::json receive(const std::string& expected_type = {});
  nlohmann::json receive(std::chrono::milliseconds timeout, int interrupt_fd,
                         const std::string& expected_type = {});
  void send_error(int exit_code, const std::string& message) noexcept;
  // The client's side; false when the server answered in clear (its line waits: receive it).
  bool connect_tls(const TlsContext& context, const std::string& host);
  // Whether every message from now on is encrypted (TLS is up).
  bool secured() const noexcept { return tls_.has_value(); }

  // What bounds every wait from now on, whichever step waits (a server's session: its
  // bootstraps' waits too): `stop_fd` readable ends it at once, and past `deadline` it raises
  // `over` instead of waiting.
  struct WaitBound {
    int stop_fd = -1;
    std::optional<std::chrono::steady_clock::time_point> deadline;
    std::function<Error()> over;
  };
  void bound_waits(WaitBound bound) { bound_ = std::move(bound); }
  // Runs `wait(timeout, stop_fd)`, a wait of the session's on something other than the channel
  // (the rdma_cm bootstrap's events): `timeout` cut to what the deadline leaves, `stop_fd` the
  // bound's (-1: none). Past the deadline, and when the wait failed at it, raises the bound's
  // `over` instead.
  template <typename Wait>
  decltype(auto) within_bounds(std::chrono::milliseconds timeout, Wait wait) {
    const Window w = window(timeout);
    try {
      return wait(w.timeout, bound_.stop_fd);
    } catch (const Error&) {
      if (w.until_deadline && std::chrono::steady_clock::now() >= *bound_.deadline)
        throw bound_.over();
      throw;
    }
  }

  const TcpSocket& socket() const noexcept { return socket_; }
  TcpSocket& socket() noexcept { return socket_; }

 private:
  // How long a failed send looks for what the peer said before it closed.
  static constexpr std::chrono::milliseconds kLastWordsWait{200};
  // The line the peer left before it closed, if any arrives within kLastWordsWait.
  std::optional<std::string> last_words() noexcept;

  // A wait's `timeout` cut to what the deadline leaves, and whether the deadline is what ends it;
  // raises the bound's `over` when nothing is left.
  struct Window {
    std::chrono::milliseconds timeout;
    bool until_deadline = false;
  };
  Window window(std::chrono::milliseconds timeout) const;

  // The next line from the peer, decrypted when TLS is up.
  std::string receive_line(std::chrono::milliseconds timeout, int interrupt_fd);

  TcpSocket socket_;
  std::chrono::milliseconds timeout_;
  std::optional<TlsStream> tls_;  // after socket_: ended before it closes
  WaitBound bound_;
};

}  // namespace rdmabench
