// The port a listening socket the kernel gave port 0 was bound to (tests on loopback).
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdint>

#include "net/tcp_socket.h"

namespace rdmabench::testing {

inline uint16_t port_of(const TcpSocket& listener) {
  sockaddr_in6 addr{};
  socklen_t len = sizeof(addr);
  getsockname(listener.fd(), reinterpret_cast<sockaddr*>(&addr), &len);
  return ntohs(addr.sin6_port);
}

}  // namespace rdmabench::testing
