// A rank as the others reach it, typed once its identity is checked (identity_check.h): where
// its servers listen, and the device and port it measures with. Under --traffic slot s of a
// host's k-th rank listens on port + s * (ranks on that host) + k.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace rdmabench {

struct RankPlace {
  int rank = 0;
  std::string hostname;
  std::string address;       // where its servers listen, and its pairs' source address
  uint16_t port = 0;         // its server's (slot 0's)
  uint16_t slot_stride = 1;  // the ranks on its host
  std::string device;
  uint8_t ib_port = 1;
  std::string fabric;  // as to_string(Fabric) names it; "" when it did not say
};

// The place of a rank whose identity check_identity took (and that did not fail).
RankPlace rank_place_of(const nlohmann::json& checked_identity);

// The port of `server`'s slot `slot`; Error(kConnection) when the identity's figures put it
// beyond 65535.
uint16_t slot_port(const RankPlace& server, int slot);

}  // namespace rdmabench
