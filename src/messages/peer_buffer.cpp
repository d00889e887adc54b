#include "messages/peer_buffer.h"

namespace rdmabench {

nlohmann::json buffer_json(const RemoteBuffer& b) {
  return {{"addr", b.address}, {"rkey", b.rkey}, {"len", b.length}};
}

RemoteBuffer buffer_from(const nlohmann::json& message, const MessageContext& ctx, uint64_t size) {
  const MessageContext buf{"buf.buf"};
  const nlohmann::json& j = field(message, ctx, "buf");
  return {unsigned_as<uint64_t>(j, buf, "addr"), unsigned_as<uint32_t>(j, buf, "rkey"),
          unsigned_as<uint64_t>(j, buf, "len", size)};
}

}  // namespace rdmabench
