#include "mesh/rank_place.h"

#include "core/error.h"

namespace rdmabench {

RankPlace rank_place_of(const nlohmann::json& id) {
  return {.rank = id.at("rank").get<int>(),
          .hostname = id.at("hostname").get<std::string>(),
          .address = id.at("address").get<std::string>(),
          .port = id.at("port").get<uint16_t>(),
          .slot_stride = id.value("slot_stride", uint16_t{1}),
          .device = id.at("device").get<std::string>(),
          .ib_port = id.value("ib_port", uint8_t{1}),
          .fabric = id.value("fabric", std::string())};
}

uint16_t slot_port(const RankPlace& server, int slot) {
  const int64_t at = server.port + int64_t{slot} * server.slot_stride;
  if (server.port < 1 || server.slot_stride < 1 || at > 65535)
    throw Error(ExitCode::kConnection, "rank " + std::to_string(server.rank) +
                                           "'s identity puts its server slot " +
                                           std::to_string(slot) + " beyond port 65535");
  return static_cast<uint16_t>(at);
}

}  // namespace rdmabench
