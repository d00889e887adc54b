// One TLS 1.3 session over a connected TcpSocket (control_channel.h's transport once a key or a
// certificate is given): the handshake, then lines sent and received encrypted, each step within
// its timeout and ended at once by an interrupt fd, a line bounded like the socket's own.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "channel/tcp_socket.h"
#include "channel/tls_context.h"

struct ssl_st;

namespace rdmabench {

// What the peer's first byte says it speaks: a TLS record (a ClientHello, a ServerHello, an
// alert), or anything else (an rdmabench line in clear, a stray client). Waits for it without
// taking it off the socket; throws as receive_line does (timeout, interrupt, close).
enum class FirstWord { kTls, kClear };
FirstWord peer_first_word(TcpSocket& socket, std::chrono::milliseconds timeout, int interrupt_fd);

class TlsStream {
 public:
  // The server's side of the handshake on an accepted socket whose first word is TLS, step by
  // step (the lobby's, beside every other connection): begun here, then step_accept() each
  // time the socket is ready as the last step asked, until kDone. A step throws
  // Error(kConnection) saying why the handshake failed (a peer without the key, a certificate
  // the CA did not sign, a close).
  static TlsStream begin_accept(TcpSocket& socket, const TlsContext& context);
  enum class Progress { kDone, kWantRead, kWantWrite };
  Progress step_accept();
  // The client's side, to `host` (whose name a certificate must carry). nullopt when the server
  // answered the ClientHello in clear: it speaks no TLS, and its line waits on the socket.
  static std::optional<TlsStream> connect(TcpSocket& socket, const TlsContext& context,
                                          const std::string& host,
                                          std::chrono::milliseconds timeout);

  TlsStream(TlsStream&&) noexcept;
  TlsStream& operator=(TlsStream&&) noexcept;
  ~TlsStream();

  void send_all(std::string_view data, std::chrono::milliseconds timeout);
  // As TcpSocket::receive_line, from the decrypted stream.
  std::string receive_line(std::chrono::milliseconds timeout, int interrupt_fd = -1);
  // Sends `line` if the socket takes it at once (a short answer before the connection is
  // closed); false when it does not.
  bool try_send(std::string_view line) noexcept;
  // Sends close_notify (best effort, without waiting for the peer's).
  void close_notify() noexcept;

 private:
  struct Deleter {
    void operator()(ssl_st* ssl) const noexcept;
  };
  TlsStream(const TlsContext& context, std::unique_ptr<ssl_st, Deleter> ssl, std::string peer)
      : context_(context), ssl_(std::move(ssl)), peer_(std::move(peer)) {}

  TlsContext context_;  // what the session's callbacks read, kept for as long as it lives
  std::unique_ptr<ssl_st, Deleter> ssl_;
  std::string peer_;
  LineBuffer pending_;  // decrypted, not yet a line
};

}  // namespace rdmabench
