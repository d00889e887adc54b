// The peer's buffer as both bootstraps exchange it over the control channel ("buf": address,
// rkey, length), checked field by field (any program may be on the other end).
#pragma once

#include <nlohmann/json.hpp>

#include "datapath/qp_stream.h"
#include "messages/message_fields.h"

namespace rdmabench {

nlohmann::json buffer_json(const RemoteBuffer& b);
// The peer's buffer in `message`, which must hold a whole message of `size` bytes.
RemoteBuffer buffer_from(const nlohmann::json& message, const MessageContext& ctx, uint64_t size);

}  // namespace rdmabench
