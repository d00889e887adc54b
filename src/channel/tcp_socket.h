// A TCP socket with timeouts on every blocking step.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "channel/line_buffer.h"

namespace rdmabench {

class TcpSocket {
 public:
  // Connects; throws Error(kConnection) saying what failed and what to check.
  static TcpSocket connect(const std::string& host, uint16_t port,
                           std::chrono::milliseconds timeout);
  // Listens on all addresses (IPv4 and IPv6 when available), or on `bind_address` alone
  // (an IPv4 or IPv6 address of this host: serve --bind). Throws Error(kUsage) for an address
  // that is not one, Error(kConnection) when the port or address cannot be bound.
  static TcpSocket listen(uint16_t port, const std::string& bind_address = "");

  TcpSocket() = default;
  explicit TcpSocket(int fd) : fd_(fd) {}
  ~TcpSocket();
  TcpSocket(TcpSocket&& other) noexcept;
  TcpSocket& operator=(TcpSocket&& other) noexcept;
  TcpSocket(const TcpSocket&) = delete;
  TcpSocket& operator=(const TcpSocket&) = delete;

  // Waits for a client; nullopt when `interrupt_fd` became readable first. A failed accept
  // throws SocketError; accept_failure_is_lasting tells whether waiting may mend it.
  std::optional<TcpSocket> accept(int interrupt_fd);

  void send_all(std::string_view data, std::chrono::milliseconds timeout);
  // One '\n'-terminated line (without the '\n'). Throws on timeout, on close, or when
  // interrupt_fd (if >= 0) becomes readable.
  std::string receive_line(std::chrono::milliseconds timeout, int interrupt_fd = -1);

  // Ends this side's sending (what was sent still arrives), then discards what the peer still
  // sends, unread, until it closes: at most `limit` bytes, for at most `linger`. Closing with
  // unread data would reset the connection, and the peer lose what it was told last.
  void finish(std::chrono::milliseconds linger, size_t limit = size_t{64} * 1024);

  std::string local_address() const;
  std::string peer_address() const;
  int fd() const noexcept { return fd_; }

 private:
  int fd_ = -1;
  LineBuffer pending_;  // received, not yet a line
};

// Whether an accept that failed with `err` means the listening socket itself is broken (a bad
// descriptor, not a listening socket): nothing a later accept can mend. Everything else accept
// returns passes (out of descriptors or memory, a connection that failed before it was taken,
// the network errors Linux passes on from one).
bool accept_failure_is_lasting(int err);

}  // namespace rdmabench
