#include "control/key_handshake.h"

namespace rdmabench {

namespace {
constexpr std::string_view kServer = "rdmabench-auth-2 server";
constexpr std::string_view kClient = "rdmabench-auth-2 client";
}  // namespace

std::string server_proof(const SharedKey& key, const HandshakeNonces& nonces) {
  return key.proof({kServer, nonces.client, nonces.server});
}

std::string client_proof(const SharedKey& key, const HandshakeNonces& nonces) {
  return key.proof({kClient, nonces.client, nonces.server});
}

bool is_server_proof(const SharedKey& key, const HandshakeNonces& nonces, std::string_view proof) {
  return key.verifies(proof, {kServer, nonces.client, nonces.server});
}

bool is_client_proof(const SharedKey& key, const HandshakeNonces& nonces, std::string_view proof) {
  return key.verifies(proof, {kClient, nonces.client, nonces.server});
}

MessageAuth session_auth(const SharedKey& key, const HandshakeNonces& nonces,
                         MessageAuth::Role role) {
  return MessageAuth(key.derive({"rdmabench-auth-2 session", nonces.client, nonces.server}), role);
}

bool is_nonce(const nlohmann::json& value) {
  if (!value.is_string()) return false;
  const std::string& text = value.get_ref<const std::string&>();
  return text.size() == 64 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

}  // namespace rdmabench
