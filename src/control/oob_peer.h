// What a peer's "oob" message says of one of its streams, read field by field (any program may
// be on the other end of the control channel): its QP's address, the path MTU it offers, the
// reads and atomics it allows in flight, and its buffer.
#pragma once

#include <infiniband/verbs.h>

#include <cstdint>
#include <nlohmann/json.hpp>

#include "datapath/qp_stream.h"  // RemoteBuffer, and QpAddress (verbs)

namespace rdmabench {

struct OobPeer {
  QpAddress address;
  ibv_mtu mtu;
  uint32_t rd_atomic;
  RemoteBuffer buffer;  // holds a whole message of the spec's size
};

// Throws Error(kConnection) naming the first field that is missing or out of range.
OobPeer read_oob_peer(const nlohmann::json& message, uint64_t size);

}  // namespace rdmabench
