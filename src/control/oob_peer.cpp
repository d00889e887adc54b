#include "control/oob_peer.h"

#include "control/message_fields.h"
#include "control/peer_buffer.h"
#include "core/gid.h"

namespace rdmabench {

OobPeer read_oob_peer(const nlohmann::json& m, uint64_t size) {
  const MessageContext oob{"oob"};
  OobPeer peer{};
  peer.address.qp_number = unsigned_as<uint32_t>(m, oob, "qpn", 1, 0xffffff);
  peer.address.psn = unsigned_as<uint32_t>(m, oob, "psn", 0, 0xffffff);
  peer.address.lid = unsigned_as<uint16_t>(m, oob, "lid");
  const auto gid = parse_gid(string_field(m, oob, "gid"));
  if (!gid) throw Error(ExitCode::kConnection, "peer sent a malformed GID");
  peer.address.gid = *gid;
  peer.mtu = static_cast<ibv_mtu>(unsigned_as<uint32_t>(m, oob, "mtu", IBV_MTU_256, IBV_MTU_4096));
  peer.rd_atomic = unsigned_as<uint32_t>(m, oob, "rd_atomic", 1, 255);
  peer.buffer = buffer_from(m, oob, size);
  return peer;
}

}  // namespace rdmabench
