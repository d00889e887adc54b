// The server's side of the control protocol for one client, apart from sockets and verbs:
// it checks each message the client sends against the protocol's state (hello first; run only
// after setup; ...) and its fields, and says what to answer. The device work is a TestHost's,
// so the protocol can be tested and fuzzed without a device.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "control/control_messages.h"
#include "control/key_handshake.h"
#include "control/shared_key.h"
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
};

class ControlProtocol {
 public:
  // With a `key` (serve --key), the keyed handshake (control/key_handshake.h): the hello answers
  // with the protocol and version alone, a fresh challenge and the server's proof; the
  // client's next message must be {"type":"auth","response":HEX} proving it holds the same
  // key, and nothing else is heard before (a wrong or missing response: Error(kConnection)).
  // The server's details beyond its version come in the reply to that "auth", the session's
  // first sealed message.
  ControlProtocol(TestHost& host, ServerDetails server, const SharedKey* key = nullptr)
      : host_(host), server_(std::move(server)), key_(key) {}

  // Handles one message from the client; returns the answer, if the protocol has one.
  // Throws Error (kUsage for a bad spec, kConnection for a protocol violation) for the server
  // to send back before it drops the client.
  std::optional<nlohmann::json> handle(const nlohmann::json& message);
  // The client said goodbye.
  bool finished() const noexcept { return state_ == State::kFinished; }
  // The client has earned the server's idle timeout: it proved the key (serve --key) or,
  // without one, set up a benchmark. Until then each of its messages is due within --timeout.
  bool trusted() const noexcept { return trusted_; }
  // Once the client proved the key: the sealing of every message from then on, for the
  // channel to take before it sends the reply to "auth" (once; empty otherwise).
  std::optional<MessageAuth> take_session() { return std::exchange(session_, std::nullopt); }

 private:
  enum class State { kGreeting, kAuthenticating, kIdle, kReady, kFinished };

  nlohmann::json greet(const nlohmann::json& hello);
  nlohmann::json authenticate(const nlohmann::json& auth);

  TestHost& host_;
  ServerDetails server_;
  const SharedKey* key_;
  HandshakeNonces nonces_;
  std::optional<MessageAuth> session_;
  State state_ = State::kGreeting;
  bool trusted_ = false;
};

}  // namespace rdmabench
