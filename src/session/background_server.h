// A server on its own thread, for a process that is a client and a server at once (the
// mesh's ranks): it serves one client at a time on its listener until it is destroyed.
#pragma once

#include <ostream>
#include <thread>

#include "channel/tcp_socket.h"
#include "session/server.h"

namespace rdmabench {

class BackgroundServer {
 public:
  // Listens on options.port at once (so that a client may connect as soon as this returns)
  // and serves on a thread, which logs an error that ends it early. Throws SystemError when
  // the port cannot be bound.
  BackgroundServer(ServerOptions options, std::ostream& log);
  // Stops the server (a run in progress ends at once) and joins its thread.
  ~BackgroundServer();
  BackgroundServer(const BackgroundServer&) = delete;
  BackgroundServer& operator=(const BackgroundServer&) = delete;

 private:
  ServerOptions options_;
  ServerDetails details_;  // what its hello says, gathered before it listens
  std::ostream& log_;
  TcpSocket listener_;
  int stop_fd_;
  std::jthread thread_;
};

}  // namespace rdmabench
