// The client's side of one control connection: hello, then setup/run/teardown per benchmark.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bootstrap/bootstrap.h"
#include "channel/tls_context.h"
#include "core/peer_address.h"
#include "core/sample_clock.h"
#include "datapath/pattern.h"
#include "datapath/side_figures.h"
#include "datapath/side_run.h"
#include "host/port_counters.h"
#include "messages/control_channel.h"
#include "messages/control_messages.h"
#include "session/run_source.h"
#include "session/stop_signals.h"

namespace rdmabench {

// The server answered that it is measuring for another client.
class ServerBusy : public Error {
 public:
  ServerBusy(std::string serving_host, std::string serving_since);
  const std::string serving;  // that client's address
  const std::string since;    // ISO 8601 UTC
};

// The paths both sides' QPs really use, once a benchmark is set up.
struct PathsInUse {
  PathInUse client;
  ServerPath server;  // and where the server's side runs
};

class ClientSession : public RunSource {
 public:
  // With `tls` (run --key, --cert), TLS 1.3 with a server that asks for the same, which proves
  // the key or its certificate too; a server that answers in clear is refused. Without it, a
  // server that asks for a key or a certificate refuses this client, saying what to give.
  ClientSession(const PeerAddress& server, const BootstrapOptions& options,
                const TlsContext* tls = nullptr);
  ~ClientSession() override;
  ClientSession(const ClientSession&) = delete;
  ClientSession& operator=(const ClientSession&) = delete;

  const ServerDetails& server() const noexcept { return server_; }
  // Tears down the previous benchmark's connection (if any) and connects for `spec`.
  void setup(const TestSpec& spec);
  const TestSpec* current() const noexcept { return endpoint_ ? &endpoint_->spec() : nullptr; }
  // After setup: the paths both QPs really use. Throws Error(kConnection) when the server's
  // answer is malformed.
  PathsInUse paths_in_use();
  // One run; lat samples of thread t go to samples[t * (size / threads) ...].
  RunResult run(const ClientRun& request, std::span<uint64_t> samples) override;
  // The figures this side made of the last timed run, for the server's log ("result").
  void report(const ClientFigures& figures) { control_.send(result_message(figures)); }
  // What lat samples are read with from now on (CLOCK_MONOTONIC until set); a TSC is checked
  // against CLOCK_MONOTONIC after every run, which fails when it drifted.
  void use_sample_clock(SampleClock clock) { clock_ = std::move(clock); }
  // Every wait of this session from now on, the runs' completions too, ends by `deadline`,
  // raising `over()` past it (the search's bound on one point): no peer or fabric that keeps
  // a step going (a trickle of completions each inside --timeout) holds the caller longer.
  // The session is out of step with its server after that: it is for closing.
  void set_deadline(std::chrono::steady_clock::time_point deadline, std::function<Error()> over);

 private:
  // The server's answer to the hello: its details, or ServerBusy, or its error raised.
  ServerDetails greeted(const nlohmann::json& reply);
  // TLS with the server; refuses one that answered in clear (raising what it said first).
  void secure(const TlsContext& tls, const PeerAddress& server);
  // After this side's run failed: raises the server's error message if it sent one (it ended
  // the run, and says why); returns when it sent none within 100 ms.
  void raise_server_error();

  ControlChannel control_;
  BootstrapOptions options_;
  SampleClock clock_ = SampleClock::monotonic("the default");
  ServerDetails server_;
  std::unique_ptr<TransportPattern> pattern_;
  std::unique_ptr<Endpoint> endpoint_;
  std::optional<PortCounters> port_;  // where endpoint_'s QPs go out
  std::optional<bool> one_port_;      // the server's QPs go out of port_ too (asked once a setup)
  std::optional<std::chrono::steady_clock::time_point> deadline_;  // set_deadline's
  std::function<Error()> over_;
};

// How long a client waits for a busy server: up to `wait` (0: fail at once, --no-wait),
// giving up early on SIGINT/SIGTERM when `stop` is set.
struct WaitPolicy {
  std::chrono::milliseconds wait{0};
  const StopSignals* stop = nullptr;
};

// Connects and says hello. While the server answers busy, tries again every second with a
// progress line on `progress`, within policy.wait; then throws Error(kConnection) saying who
// holds the server.
std::unique_ptr<ClientSession> connect_when_free(const PeerAddress& server,
                                                 const BootstrapOptions& options,
                                                 const WaitPolicy& policy, std::ostream& progress,
                                                 const TlsContext* tls = nullptr);

}  // namespace rdmabench
