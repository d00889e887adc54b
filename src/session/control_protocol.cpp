#include "session/control_protocol.h"

#include "core/error.h"
#include "core/printable_text.h"
#include "messages/control_channel.h"
#include "messages/control_messages.h"
#include "messages/message_fields.h"
#include "messages/protocol_version.h"
#include "messages/spec_json.h"

namespace rdmabench {

std::optional<nlohmann::json> ControlProtocol::handle(const nlohmann::json& message) {
  const std::string type = string_field(message, {"message"}, "type");
  if (state_ == State::kGreeting) {
    if (type != "hello")
      throw Error(ExitCode::kConnection,
                  "expected 'hello' first, got '" + peer_excerpt(type) + "'");
    return greet(message);
  }
  if (type == "setup") {
    host_.setup(spec_from_json(field(message, {"setup", ExitCode::kUsage}, "spec")));
    state_ = State::kReady;
    trusted_ = true;
    return std::nullopt;
  }
  if (type == "run") {
    if (state_ != State::kReady) throw Error(ExitCode::kConnection, "'run' before 'setup'");
    return done_message(host_.run(run_order_from(message)));
  }
  if (type == "path") {
    if (state_ != State::kReady) throw Error(ExitCode::kConnection, "'path' before 'setup'");
    return path_reply(host_.path());
  }
  if (type == "result") {
    if (state_ != State::kReady) throw Error(ExitCode::kConnection, "'result' before 'setup'");
    host_.result(read_result(message));
    return std::nullopt;
  }
  if (type == "teardown") {
    host_.teardown();
    state_ = State::kIdle;
    return std::nullopt;
  }
  if (type == "bye") {
    state_ = State::kFinished;
    return std::nullopt;
  }
  throw Error(ExitCode::kConnection, "unexpected message '" + peer_excerpt(type) + "'");
}

nlohmann::json ControlProtocol::greet(const nlohmann::json& hello) {
  const auto protocol = hello.find("protocol");
  const int64_t theirs =
      protocol != hello.end() && protocol->is_number_integer() ? protocol->get<int64_t>() : -1;
  if (theirs != kControlProtocolVersion) {
    const auto version = hello.find("version");
    const std::string their_version =
        version != hello.end() && version->is_string() ? version->get<std::string>() : "?";
    throw Error(ExitCode::kConnection,
                "protocol version mismatch: client speaks " + std::to_string(theirs) +
                    " (rdmabench " + peer_excerpt(their_version) + "), server speaks " +
                    std::to_string(kControlProtocolVersion) + " (rdmabench " + server_.version +
                    "); run the same rdmabench version on both hosts");
  }
  state_ = State::kIdle;
  return server_hello_message(server_);
}

}  // namespace rdmabench
