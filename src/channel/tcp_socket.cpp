#include "channel/tcp_socket.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <utility>

#include "channel/socket_error.h"
#include "core/wait_readable.h"

namespace rdmabench {

namespace {
using Clock = std::chrono::steady_clock;

std::string address_text(const sockaddr_storage& ss) {
  char text[INET6_ADDRSTRLEN] = {};
  if (ss.ss_family == AF_INET) {
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(ss).sin_addr, text, sizeof(text));
  } else {
    const auto& in6 = reinterpret_cast<const sockaddr_in6&>(ss);
    if (IN6_IS_ADDR_V4MAPPED(&in6.sin6_addr)) {
      inet_ntop(AF_INET, in6.sin6_addr.s6_addr + 12, text, sizeof(text));
    } else {
      inet_ntop(AF_INET6, &in6.sin6_addr, text, sizeof(text));
    }
  }
  return text;
}

void set_options(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
}
}  // namespace

TcpSocket::~TcpSocket() {
  if (fd_ >= 0) close(fd_);
}

TcpSocket::TcpSocket(TcpSocket&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), pending_(std::move(other.pending_)) {}

TcpSocket& TcpSocket::operator=(TcpSocket&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    pending_ = std::move(other.pending_);
  }
  return *this;
}

TcpSocket TcpSocket::connect(const std::string& host, uint16_t port,
                             std::chrono::milliseconds timeout) {
  const std::string where = host + ":" + std::to_string(port);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (const int rc = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found);
      rc != 0)
    throw Error(ExitCode::kConnection, "cannot resolve server '" + host + "': " + gai_strerror(rc));
  std::string last_error = "no address";
  const auto deadline = Clock::now() + timeout;
  for (addrinfo* ai = found; ai != nullptr; ai = ai->ai_next) {
    TcpSocket sock(socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (sock.fd_ < 0) continue;
    if (::connect(sock.fd_, ai->ai_addr, ai->ai_addrlen) != 0 && errno != EINPROGRESS) {
      last_error = std::strerror(errno);
      continue;
    }
    pollfd pfd{sock.fd_, POLLOUT, 0};
    const int ready = poll(&pfd, 1, poll_timeout_ms(deadline));
    if (ready <= 0) {
      last_error = "timed out after " + std::to_string(timeout.count()) + " ms";
      continue;
    }
    int err = 0;
    socklen_t len = sizeof(err);
    getsockopt(sock.fd_, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err != 0) {
      last_error = std::strerror(err);
      continue;
    }
    set_options(sock.fd_);
    freeaddrinfo(found);
    return sock;
  }
  freeaddrinfo(found);
  throw Error(ExitCode::kConnection, "cannot connect to the rdmabench server at " + where + ": " +
                                         last_error +
                                         ". Is `rdmabench serve` running there (same --port)?");
}

namespace {

// sockaddr for `address` ("" = every address, dual-stack IPv6 when the host has IPv6).
struct ListenAddress {
  sockaddr_storage storage{};
  socklen_t length = 0;
  int family = AF_INET6;
};

ListenAddress listen_address(uint16_t port, const std::string& address, bool have_v6) {
  ListenAddress a;
  auto* in4 = reinterpret_cast<sockaddr_in*>(&a.storage);
  auto* in6 = reinterpret_cast<sockaddr_in6*>(&a.storage);
  if (address.empty() ? !have_v6 : inet_pton(AF_INET, address.c_str(), &in4->sin_addr) == 1) {
    a.family = in4->sin_family = AF_INET;
    in4->sin_port = htons(port);
    a.length = sizeof(sockaddr_in);
    return a;
  }
  if (!address.empty() && inet_pton(AF_INET6, address.c_str(), &in6->sin6_addr) != 1)
    throw Error(ExitCode::kUsage,
                "--bind '" + address.substr(0, 60) + "': not an IPv4 or IPv6 address of this host");
  if (address.empty()) in6->sin6_addr = in6addr_any;
  a.family = in6->sin6_family = AF_INET6;
  in6->sin6_port = htons(port);
  a.length = sizeof(sockaddr_in6);
  return a;
}

}  // namespace

TcpSocket TcpSocket::listen(uint16_t port, const std::string& bind_address) {
  const int probe = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (probe >= 0) close(probe);
  const ListenAddress where = listen_address(port, bind_address, probe >= 0);
  TcpSocket sock(socket(where.family, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (sock.fd_ < 0) throw SocketError("socket", errno);
  int one = 1, zero = 0;
  setsockopt(sock.fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  if (where.family == AF_INET6 && bind_address.empty())
    setsockopt(sock.fd_, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
  if (bind(sock.fd_, reinterpret_cast<const sockaddr*>(&where.storage), where.length) != 0)
    throw SocketError(
        "bind", errno,
        (bind_address.empty() ? std::string() : bind_address + " ") + "TCP port " +
            std::to_string(port) +
            (bind_address.empty() ? " (try another --port)"
                                  : " (is the address this host's? try another --port)"));
  if (::listen(sock.fd_, 8) != 0) throw SocketError("listen", errno);
  return sock;
}

std::optional<TcpSocket> TcpSocket::accept(int interrupt_fd) {
  for (;;) {
    pollfd pfds[2] = {{fd_, POLLIN, 0}, {interrupt_fd, POLLIN, 0}};
    if (poll(pfds, interrupt_fd >= 0 ? 2 : 1, -1) < 0) {
      if (errno == EINTR) continue;
      throw SocketError("poll", errno);
    }
    if (interrupt_fd >= 0 && (pfds[1].revents & POLLIN)) return std::nullopt;
    const int fd = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      throw SocketError("accept", errno);
    }
    set_options(fd);
    return TcpSocket(fd);
  }
}

bool accept_failure_is_lasting(int err) {
  return err == EBADF || err == EFAULT || err == EINVAL || err == ENOTSOCK || err == EOPNOTSUPP;
}

void TcpSocket::send_all(std::string_view data, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (!data.empty()) {
    const ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      data.remove_prefix(static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EINTR)
      throw SocketError("send(control channel)", errno, peer_address());
    pollfd pfd{fd_, POLLOUT, 0};
    if (poll(&pfd, 1, poll_timeout_ms(deadline)) == 0)
      throw Error(ExitCode::kConnection, "control channel: send timed out (peer not reading)");
  }
}

std::string TcpSocket::receive_line(std::chrono::milliseconds timeout, int interrupt_fd) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    if (auto line = pending_.next_line()) return std::move(*line);
    pollfd pfds[2] = {{fd_, POLLIN, 0}, {interrupt_fd, POLLIN, 0}};
    const int ready = poll(pfds, interrupt_fd >= 0 ? 2 : 1, poll_timeout_ms(deadline));
    if (ready < 0 && errno != EINTR) throw SocketError("poll", errno);
    if (interrupt_fd >= 0 && (pfds[1].revents & POLLIN))
      throw Error(ExitCode::kConnection, "interrupted");
    if (ready == 0)
      throw ReceiveTimeout(ExitCode::kConnection,
                           "control channel: no message from " + peer_address() + " within " +
                               std::to_string(timeout.count()) + " ms (see --timeout)");
    char buf[4096];
    const ssize_t n = ::recv(fd_, buf, sizeof(buf), MSG_DONTWAIT);
    if (n == 0) throw Error(ExitCode::kConnection, "control channel: peer closed the connection");
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      throw SocketError("recv(control channel)", errno);
    }
    pending_.append(buf, static_cast<size_t>(n));
  }
}

void TcpSocket::finish(std::chrono::milliseconds linger, size_t limit) {
  ::shutdown(fd_, SHUT_WR);
  const auto deadline = Clock::now() + linger;
  for (size_t discarded = 0; discarded < limit;) {
    pollfd pfd{fd_, POLLIN, 0};
    if (poll(&pfd, 1, poll_timeout_ms(deadline)) <= 0) return;
    char buf[4096];
    const ssize_t n = ::recv(fd_, buf, sizeof(buf), MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) return;
    if (n > 0) discarded += static_cast<size_t>(n);
  }
}

std::string TcpSocket::local_address() const {
  sockaddr_storage ss{};
  socklen_t len = sizeof(ss);
  getsockname(fd_, reinterpret_cast<sockaddr*>(&ss), &len);
  return address_text(ss);
}

std::string TcpSocket::peer_address() const {
  sockaddr_storage ss{};
  socklen_t len = sizeof(ss);
  if (getpeername(fd_, reinterpret_cast<sockaddr*>(&ss), &len) != 0) return "(unconnected)";
  return address_text(ss);
}

}  // namespace rdmabench
