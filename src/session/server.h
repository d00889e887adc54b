// `rdmabench serve`: one long-lived server that runs whatever each client asks for, one
// client at a time. A client that dies mid-test costs only its own resources.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "channel/address_allow_list.h"
#include "channel/tcp_socket.h"
#include "channel/tls_context.h"
#include "core/local_device.h"
#include "core/peer_address.h"
#include "messages/control_messages.h"
#include "session/server_caps.h"

namespace rdmabench {

struct ServerOptions {
  uint16_t port = kDefaultControlPort;
  LocalDevice local;                               // --device, and for --cm oob its port and GID
  std::chrono::milliseconds timeout{5000};         // every blocking step within a test
  std::chrono::milliseconds idle_timeout{300000};  // between a client's messages
  bool once = false;                               // exit after the first client
  bool debug_corrupt = false;  // testing: in check runs, damage what this side sends
  std::vector<int> cpus;       // --cpus: server thread t runs on cpus[t % size]
  std::optional<int> numa;     // --numa N or kNumaOff (not given: each device's own node)
  // A server safe to leave running: where it listens, whom it answers, the key a client must
  // prove it holds, and what any one client may ask.
  std::string bind_address;       // --bind ("" = every address)
  AddressAllowList allow;         // --allow (empty: every address)
  std::optional<TlsContext> tls;  // --key or --cert: TLS 1.3, the client proving the same
  ServerCaps caps;                // --max-duration, --max-memory, --max-qps, ...
};

// Runs until SIGINT/SIGTERM. Returns the process exit code.
int run_server(const ServerOptions& options, std::ostream& log);

// What the server says of itself in its hello (version, host, kernel, rdma-core, timing, CPUs),
// gathered before it listens: no client waits while it reads them (rdma-core's version is in
// dpkg's status file, and in a guest whose root is the host's, tools/rxe-vm, a file read is a
// wait for the host).
ServerDetails server_details(const ServerOptions& options);

// Serves the clients that connect to `listener`, one at a time, until `stop_fd` is readable
// (checked while waiting for a client, within every blocking step of a test, and after each
// client) or, with options.once, after the first client; each hello says `details`. The port in
// `options` is not used.
void serve_clients(TcpSocket& listener, const ServerOptions& options, const ServerDetails& details,
                   int stop_fd, std::ostream& log);

}  // namespace rdmabench
