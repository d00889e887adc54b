// The server's "cm_listen" message of an rdma_cm setup: the port its listener waits on, and
// the token every connection request of this setup must carry as private data (so that the
// listener takes no request but the control client's). Read field by field: any program may
// be on the other end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace rdmabench {

// The token's length: hex text, so it is its own length in the private data (at most 56
// bytes for RC).
inline constexpr size_t kCmTokenLength = 32;

struct CmListen {
  uint16_t port;
  std::string token;
};

nlohmann::json cm_listen_message(const CmListen& listen);
// Throws Error(kConnection) naming a missing or malformed field.
CmListen read_cm_listen(const nlohmann::json& message);

}  // namespace rdmabench
