// The keyed handshake (serve --key, run --key), one home for both sides' proofs:
//   client hello:  {"nonce": Nc}
//   server hello:  {"auth": {"method", "challenge": Ns, "proof": P(server, Nc, Ns)}}
//   client auth:   {"response": P(client, Nc, Ns)}   (the client checked the server's first)
//   server auth:   {"ok": true, "hello": the server's details}, the first sealed message
// P is the shared key's HMAC; after both proofs every message is sealed with the session key
// HMAC(key, session, Nc, Ns) (control/message_auth.h). Each side's fresh nonce makes a recorded
// exchange worthless for another session, in either role.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "control/message_auth.h"
#include "control/shared_key.h"

namespace rdmabench {

inline constexpr const char* kAuthMethod = "hmac-sha256-mutual-2";

struct HandshakeNonces {
  std::string client;
  std::string server;
};

std::string server_proof(const SharedKey& key, const HandshakeNonces& nonces);
std::string client_proof(const SharedKey& key, const HandshakeNonces& nonces);
// Whether `proof` (what the peer sent) is the server's, or the client's, compared in constant
// time.
bool is_server_proof(const SharedKey& key, const HandshakeNonces& nonces, std::string_view proof);
bool is_client_proof(const SharedKey& key, const HandshakeNonces& nonces, std::string_view proof);
// The session's sealing, for `role`'s side.
MessageAuth session_auth(const SharedKey& key, const HandshakeNonces& nonces,
                         MessageAuth::Role role);

// Whether `value` is a nonce as new_challenge() makes them: 64 lowercase hex digits.
bool is_nonce(const nlohmann::json& value);

}  // namespace rdmabench
