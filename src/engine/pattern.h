// A transport pattern: what the client and the server do in one run of N messages.
// The implementations live in bench/ (send.cpp, write.cpp, write_imm.cpp, read.cpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>

#include "cq/registry.h"
#include "engine/completion_poller.h"
#include "engine/endpoint.h"

namespace rdmabench {

struct ClientMeasurement {
  double seconds = 0;          // bw: first post to last completion; lat: sum of round trips
  double span_seconds = 0;     // lat: first send (intended, with --rate) to last reply
  uint64_t verify_errors = 0;  // corrupt bytes seen by the client (read)
};

class TransportPattern {
 public:
  virtual ~TransportPattern() = default;
  // Runs `iterations` messages. In lat mode writes one full round trip (ns) per message into
  // `samples` (sized by the caller, so nothing is allocated here).
  virtual ClientMeasurement run_client(Endpoint& ep, uint64_t iterations,
                                       std::span<uint64_t> samples,
                                       std::chrono::milliseconds timeout) = 0;
  // The server, before it tells the client to start a run (nothing is timed yet).
  virtual void before_server_run(Endpoint&) {}
  // The server's active part of the same run (receiving, echoing); passive patterns return
  // at once. Returns corrupt bytes seen.
  virtual uint64_t run_server(Endpoint& ep, uint64_t iterations,
                              std::chrono::milliseconds timeout) = 0;
  // After the client finished a check run: what the server can check only then (written
  // data of write bw). Patterns check per message only when ep.checking (a --verify check run,
  // never a timed one).
  virtual uint64_t verify_after_run(Endpoint&) { return 0; }
};

std::unique_ptr<TransportPattern> make_send_pattern();
std::unique_ptr<TransportPattern> make_write_pattern();
std::unique_ptr<TransportPattern> make_write_imm_pattern();
std::unique_ptr<TransportPattern> make_read_pattern();
std::unique_ptr<TransportPattern> make_pattern(Pattern pattern);

// Calls fn(poller) with a poller of this side's strategy.
template <typename Fn>
decltype(auto) with_poller(Endpoint& ep, std::chrono::milliseconds timeout, Fn&& fn) {
  PollTarget target = ep.poll_target(timeout);
  return with_poller(target, std::forward<Fn>(fn));
}

}  // namespace rdmabench
