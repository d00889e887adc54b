// Where a rank's servers listen under --traffic: slot s of a host's k-th rank on
// port + s * (ranks on that host) + k, its identity giving port (slot 0's) and slot_stride (the
// ranks on its host; absent: 1).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

namespace rdmabench {

// The port of `server`'s slot `slot`, from its identity (checked by identity_check.h);
// Error(kConnection) when the identity's figures put it beyond 65535.
uint16_t slot_port(const nlohmann::json& server, int slot);

}  // namespace rdmabench
