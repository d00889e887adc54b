#include "core/tcp_port_probe.h"

#include <netinet/in.h>
#include <unistd.h>

#include <cerrno>

namespace rdmabench {

bool tcp_port_held(const sockaddr& address) {
  const socklen_t length = address.sa_family == AF_INET6  ? sizeof(sockaddr_in6)
                           : address.sa_family == AF_INET ? sizeof(sockaddr_in)
                                                          : 0;
  if (length == 0) return false;
  const int fd = socket(address.sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const int on = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  const bool held = bind(fd, &address, length) != 0 && errno == EADDRINUSE;
  close(fd);
  return held;
}

}  // namespace rdmabench
