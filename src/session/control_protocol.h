// The server's side of the control protocol for one client, apart from sockets and verbs:
// it checks each message the client sends against the protocol's state (hello first; run only
// after setup; ...) and its fields, and says what to answer. The device work is a TestHost's,
// so the protocol can be tested and fuzzed without a device.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>

#include "messages/control_messages.h"
#include "spec/run_length.h"
#include "spec/test_spec.h"

namespace rdmabench {

// Does what the client asks on the device. The real one bootstraps and runs patterns over the
// control channel (server.cpp); the fuzzer's does nothing.
class TestHost {
 public:
  virtual ~TestHost() = default;
  // Builds and connects an endpoint for a validated spec (may exchange further messages).
  virtual void setup(const TestSpec& spec) = 0;
  // Runs one measurement, or a --verify check run; returns this side's report of it.
  virtual SideReport run(const RunOrder& order) = 0;
  virtual void teardown() = 0;
  // The path the set-up endpoint really uses, and where this side runs.
  virtual ServerPath path() = 0;
  // The client's figures of the last timed run ("result"), for the server's log.
  virtual void result(const ClientFigures& figures) = 0;
};

class ControlProtocol {
 public:
  // `authenticated`: the client proved the key or its certificate in the channel's TLS
  // handshake (serve --key, --cert) before its first message.
  ControlProtocol(TestHost& host, ServerDetails server, bool authenticated = false)
      : host_(host), server_(std::move(server)), trusted_(authenticated) {}

  // Handles one message from the client; returns the answer, if the protocol has one.
  // Throws Error (kUsage for a bad spec, kConnection for a protocol violation) for the server
  // to send back before it drops the client.
  std::optional<nlohmann::json> handle(const nlohmann::json& message);
  // The client said goodbye.
  bool finished() const noexcept { return state_ == State::kFinished; }
  // The client has earned the server's idle timeout: it proved the key or its certificate
  // (serve --key, --cert) or, without them, set up a benchmark. Until then each of its messages
  // is due within --timeout.
  bool trusted() const noexcept { return trusted_; }

 private:
  enum class State { kGreeting, kIdle, kReady, kFinished };

  nlohmann::json greet(const nlohmann::json& hello);

  TestHost& host_;
  ServerDetails server_;
  State state_ = State::kGreeting;
  bool trusted_ = false;
};

}  // namespace rdmabench
