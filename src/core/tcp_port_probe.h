// Whether TCP holds a local port: what a kernel iWARP driver meets when it binds the TCP socket
// of an rdma_cm connection to the port rdma_cm chose from its own port space, blind to TCP's.
#pragma once

#include <sys/socket.h>

namespace rdmabench {

// True when a TCP socket bound with SO_REUSEADDR (as siw binds its own) cannot take
// `address` (a local address and port): another socket holds the port there without
// SO_REUSEADDR, or listens on it. The probe binds and closes, never connects (so leaves no
// TIME_WAIT behind). Any other failure (no such address here, no sockets left) says false:
// the connection then fails on its own, with its own error.
bool tcp_port_held(const sockaddr& address);

}  // namespace rdmabench
