#include "control/message_auth.h"

#include "control/shared_key.h"
#include "core/error.h"

namespace rdmabench {

namespace {
constexpr std::string_view kToServer = "rdmabench-message-2 client to server";
constexpr std::string_view kToClient = "rdmabench-message-2 server to client";
}  // namespace

MessageAuth::MessageAuth(std::string session_key, Role role)
    : key_(std::move(session_key)),
      sending_(role == Role::kClient ? kToServer : kToClient),
      receiving_(role == Role::kClient ? kToClient : kToServer) {}

std::string MessageAuth::tag(std::string_view direction, uint64_t sequence,
                             std::string_view json) const {
  return hex_text(hmac_sha256(key_, {direction, std::to_string(sequence), json}));
}

std::string MessageAuth::seal(std::string_view json) {
  std::string line(json);
  line += '\t';
  line += tag(sending_, sent_++, json);
  return line;
}

std::string MessageAuth::open(std::string_view line, const std::string& peer) {
  const size_t tab = line.rfind('\t');
  const std::string_view json = line.substr(0, tab == std::string_view::npos ? 0 : tab);
  if (tab == std::string_view::npos ||
      !equal_in_constant_time(line.substr(tab + 1), tag(receiving_, received_, json)))
    throw Error(ExitCode::kConnection,
                "control channel: a message from " + peer +
                    " failed its authentication (changed, replayed or out of order, or not from "
                    "the peer that proved the key); the session ends");
  ++received_;
  return std::string(json);
}

}  // namespace rdmabench
