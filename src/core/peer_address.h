// Where the other side's control channel listens: a host (name or address) and its TCP port.
// One type for it wherever a command connects: `run`'s suite, a search's server, a mesh pair.
#pragma once

#include <cstdint>
#include <string>

namespace rdmabench {

inline constexpr uint16_t kDefaultControlPort = 18515;  // perftest's default port

struct PeerAddress {
  std::string host;  // "" when not given (each command says what it needs)
  uint16_t port = kDefaultControlPort;
  // "host:port", for messages (the host as given; IPv6 in brackets).
  std::string text() const {
    const bool ipv6 = host.find(':') != std::string::npos;
    return (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
  }
};

}  // namespace rdmabench
