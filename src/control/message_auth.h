// Every control message after a keyed handshake, authenticated with the session key both sides
// derived from the shared key and their two nonces: a line is the message's JSON, a tab, and
// HMAC-SHA256(session key, direction, sequence number, JSON) in hex. A message changed, dropped,
// replayed, reordered or sent by anyone without the session key fails its check, and the
// session ends. (The JSON never holds a raw tab: the encoder escapes control characters.)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rdmabench {

class MessageAuth {
 public:
  enum class Role { kClient, kServer };
  MessageAuth(std::string session_key, Role role);

  // `json` and its tag: the line to send (without its newline).
  std::string seal(std::string_view json);
  // The JSON of a line that `peer` sealed, checked; throws Error(kConnection) when the line
  // carries no tag or a wrong one.
  std::string open(std::string_view line, const std::string& peer);

 private:
  std::string tag(std::string_view direction, uint64_t sequence, std::string_view json) const;

  std::string key_;
  std::string_view sending_, receiving_;  // "client to server", "server to client"
  uint64_t sent_ = 0, received_ = 0;
};

}  // namespace rdmabench
