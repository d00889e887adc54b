#include "channel/tls_stream.h"

#include <arpa/inet.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>

#include "channel/socket_error.h"
#include "core/error.h"
#include "core/nonblocking.h"
#include "core/printable_text.h"
#include "core/wait_readable.h"

namespace rdmabench {

namespace {

using Clock = std::chrono::steady_clock;

// TLS's record types (RFC 8446 5.1): change_cipher_spec, alert, handshake, application_data.
bool is_tls_record_type(unsigned char byte) {
  return byte >= 0x14 && byte <= 0x17;
}

// Waits until `fd` is ready for `events` or `interrupt_fd` readable; false when `deadline` passed.
bool wait_for(int fd, short events, Clock::time_point deadline, int interrupt_fd) {
  for (;;) {
    pollfd pfds[2] = {{fd, events, 0}, {interrupt_fd, POLLIN, 0}};
    const int ready = poll(pfds, interrupt_fd >= 0 ? 2 : 1, poll_timeout_ms(deadline));
    if (ready < 0) {
      if (errno == EINTR) continue;
      throw SocketError("poll", errno);
    }
    if (interrupt_fd >= 0 && (pfds[1].revents & POLLIN))
      throw Error(ExitCode::kConnection, "interrupted");
    return ready > 0;
  }
}

// Why a step of the session failed, as the peer and libssl say.
std::string failure_text(SSL* ssl, int result, const std::string& step, const std::string& peer) {
  const int code = SSL_get_error(ssl, result);
  if (code == SSL_ERROR_ZERO_RETURN || (code == SSL_ERROR_SYSCALL && ERR_peek_error() == 0))
    return step == "handshake" ? "control channel: " + peer +
                                     " closed the connection during the TLS handshake (it holds "
                                     "another key, or trusts no certificate of this side?)"
                               : std::string("control channel: peer closed the connection");
  const long verified = SSL_get_verify_result(ssl);
  std::string text = tls_error_text("control channel: TLS " + step + " with " + peer + " failed");
  if (verified != X509_V_OK)
    text += " (its certificate: " + std::string(X509_verify_cert_error_string(verified)) + ")";
  return text;
}

// Runs `step` (SSL_accept, SSL_connect, SSL_read, SSL_write, ...) until it does something,
// waiting for the socket as it asks; returns its positive result. `first_read`, when given, is
// called before the first wait for the peer to say something (the client's look at the reply).
template <typename Step, typename FirstRead>
int drive(SSL* ssl, Step step, const std::string& what, const std::string& peer,
          Clock::time_point deadline, int interrupt_fd, FirstRead first_read,
          std::chrono::milliseconds timeout) {
  for (;;) {
    ERR_clear_error();
    const int result = step();
    if (result > 0) return result;
    const int code = SSL_get_error(ssl, result);
    if (code != SSL_ERROR_WANT_READ && code != SSL_ERROR_WANT_WRITE)
      throw Error(ExitCode::kConnection, failure_text(ssl, result, what, peer));
    const bool reading = code == SSL_ERROR_WANT_READ;
    if (!wait_for(SSL_get_fd(ssl), reading ? POLLIN : POLLOUT, deadline, interrupt_fd)) {
      if (reading)
        throw ReceiveTimeout(ExitCode::kConnection,
                             "control channel: no message from " + peer + " within " +
                                 std::to_string(timeout.count()) + " ms (see --timeout)");
      throw Error(ExitCode::kConnection, "control channel: send timed out (peer not reading)");
    }
    if (reading && !first_read()) return 0;
  }
}

const auto kNoLook = [] { return true; };

}  // namespace

FirstWord peer_first_word(TcpSocket& socket, std::chrono::milliseconds timeout, int interrupt_fd) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    if (!wait_for(socket.fd(), POLLIN, deadline, interrupt_fd))
      throw ReceiveTimeout(ExitCode::kConnection, "control channel: no message from " +
                                                      socket.peer_address() + " within " +
                                                      std::to_string(timeout.count()) +
                                                      " ms (see --timeout)");
    unsigned char byte = 0;
    const ssize_t n = ::recv(socket.fd(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n == 0) throw Error(ExitCode::kConnection, "control channel: peer closed the connection");
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      throw SocketError("recv(control channel)", errno);
    }
    return is_tls_record_type(byte) ? FirstWord::kTls : FirstWord::kClear;
  }
}

TlsStream TlsStream::begin_accept(TcpSocket& socket, const TlsContext& context) {
  set_nonblocking(socket.fd(), "the control connection");
  std::unique_ptr<ssl_st, Deleter> ssl(SSL_new(context.get()));
  if (!ssl || SSL_set_fd(ssl.get(), socket.fd()) != 1)
    throw Error(ExitCode::kInternal, tls_error_text("SSL_new (libssl) failed"));
  return TlsStream(context, std::move(ssl), socket.peer_address());
}

TlsStream::Progress TlsStream::step_accept() {
  ERR_clear_error();
  const int result = SSL_accept(ssl_.get());
  if (result > 0) return Progress::kDone;
  const int code = SSL_get_error(ssl_.get(), result);
  if (code == SSL_ERROR_WANT_READ) return Progress::kWantRead;
  if (code == SSL_ERROR_WANT_WRITE) return Progress::kWantWrite;
  throw Error(ExitCode::kConnection, failure_text(ssl_.get(), result, "handshake", peer_));
}

bool TlsStream::try_send(std::string_view line) noexcept {
  ERR_clear_error();
  return SSL_write(ssl_.get(), line.data(), static_cast<int>(line.size())) ==
         static_cast<int>(line.size());
}

namespace {
// A certificate must name the host the client asked for: its DNS name, or its address.
void expect_name(SSL* ssl, const std::string& host) {
  in6_addr any{};
  const bool address =
      inet_pton(AF_INET, host.c_str(), &any) == 1 || inet_pton(AF_INET6, host.c_str(), &any) == 1;
  const bool named = address ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host.c_str()) == 1
                             : SSL_set1_host(ssl, host.c_str()) == 1 &&
                                   SSL_set_tlsext_host_name(ssl, host.c_str()) == 1;
  if (!named) throw Error(ExitCode::kUsage, "cannot check a certificate for host '" + host + "'");
}
}  // namespace

std::optional<TlsStream> TlsStream::connect(TcpSocket& socket, const TlsContext& context,
                                            const std::string& host,
                                            std::chrono::milliseconds timeout) {
  set_nonblocking(socket.fd(), "the control connection");
  std::unique_ptr<ssl_st, Deleter> ssl(SSL_new(context.get()));
  if (!ssl || SSL_set_fd(ssl.get(), socket.fd()) != 1)
    throw Error(ExitCode::kInternal, tls_error_text("SSL_new (libssl) failed"));
  if (context.uses_certificates()) expect_name(ssl.get(), host);
  const std::string peer = socket.peer_address();
  bool looked = false;
  const auto look = [&] {  // the server's first word: TLS, or a line in clear
    if (looked) return true;
    looked = true;
    return peer_first_word(socket, std::chrono::milliseconds(0), -1) == FirstWord::kTls;
  };
  if (drive(
          ssl.get(), [&] { return SSL_connect(ssl.get()); }, "handshake", peer,
          Clock::now() + timeout, -1, look, timeout) == 0)
    return std::nullopt;
  return TlsStream(context, std::move(ssl), peer);
}

TlsStream::TlsStream(TlsStream&&) noexcept = default;
TlsStream& TlsStream::operator=(TlsStream&&) noexcept = default;
TlsStream::~TlsStream() = default;

void TlsStream::Deleter::operator()(ssl_st* ssl) const noexcept {
  SSL_free(ssl);
}

void TlsStream::send_all(std::string_view data, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (!data.empty()) {
    const int chunk = static_cast<int>(std::min<size_t>(data.size(), 1u << 30));
    const int sent = drive(
        ssl_.get(), [&] { return SSL_write(ssl_.get(), data.data(), chunk); }, "send", peer_,
        deadline, -1, kNoLook, timeout);
    data.remove_prefix(static_cast<size_t>(sent));
  }
}

std::string TlsStream::receive_line(std::chrono::milliseconds timeout, int interrupt_fd) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    if (auto line = pending_.next_line()) return std::move(*line);
    char buf[4096];
    const int n = drive(
        ssl_.get(), [&] { return SSL_read(ssl_.get(), buf, sizeof(buf)); }, "receive", peer_,
        deadline, interrupt_fd, kNoLook, timeout);
    pending_.append(buf, static_cast<size_t>(n));
  }
}

void TlsStream::close_notify() noexcept {
  if (ssl_) SSL_shutdown(ssl_.get());
}

}  // namespace rdmabench
