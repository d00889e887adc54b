#include "mesh/server_slots.h"

#include <string>

#include "core/error.h"

namespace rdmabench {

uint16_t slot_port(const nlohmann::json& server, int slot) {
  const auto port = server.value("port", int64_t{0});
  const auto stride = server.value("slot_stride", int64_t{1});
  const int64_t at = port + slot * stride;
  if (port < 1 || stride < 1 || at > 65535)
    throw Error(ExitCode::kConnection, "rank " + std::to_string(server.value("rank", -1)) +
                                           "'s identity puts its server slot " +
                                           std::to_string(slot) + " beyond port 65535");
  return static_cast<uint16_t>(at);
}

}  // namespace rdmabench
