// Tests on loopback: the port a listening socket the kernel gave port 0 was bound to, and both
// ends of a control channel.
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>

#include <chrono>
#include <cstdint>
#include <stdexcept>

#include "channel/tcp_socket.h"
#include "messages/control_channel.h"

namespace rdmabench::testing {

inline uint16_t port_of(const TcpSocket& listener) {
  sockaddr_in6 addr{};
  socklen_t len = sizeof(addr);
  getsockname(listener.fd(), reinterpret_cast<sockaddr*>(&addr), &len);
  return ntohs(addr.sin6_port);
}

struct ChannelPair {
  ControlChannel client;
  ControlChannel server;
};

// A client's control channel connected to a server's over loopback, each with `timeout` on
// its steps.
inline ChannelPair connected_channels(
    std::chrono::milliseconds timeout = std::chrono::milliseconds(2000)) {
  TcpSocket listener = TcpSocket::listen(0);
  ControlChannel client(TcpSocket::connect("127.0.0.1", port_of(listener), timeout), timeout);
  std::optional<TcpSocket> accepted = listener.accept(-1);
  if (!accepted) throw std::runtime_error("loopback: no connection to accept");
  return {std::move(client), ControlChannel(std::move(*accepted), timeout)};
}

}  // namespace rdmabench::testing
