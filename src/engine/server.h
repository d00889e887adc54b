// `rdmabench serve`: one long-lived server that runs whatever each client asks for, one
// client at a time. A client that dies mid-test costs only its own resources.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace rdmabench {

struct ServerOptions {
  uint16_t port = 18515;
  std::string device;                              // for --cm oob (empty = first device)
  std::chrono::milliseconds timeout{5000};         // every blocking step within a test
  std::chrono::milliseconds idle_timeout{300000};  // between a client's messages
  bool once = false;                               // exit after the first client
  bool debug_corrupt = false;  // testing: in check runs, damage what this side sends
  std::vector<int> cpus;       // --cpus: server thread t runs on cpus[t % size]
};

// Runs until SIGINT/SIGTERM. Returns the process exit code.
int run_server(const ServerOptions& options, std::ostream& log);

}  // namespace rdmabench
