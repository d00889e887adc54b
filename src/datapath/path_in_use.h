// The path one side's QPs really use, as the side reports it: asked of its first QP with
// ibv_query_qp (a datagram's from its address handle and the MTU agreed), with the device and
// port it goes out of. Plain data: the control messages carry the server's to the client
// (control_messages.h), and the run's context reports both sides'.
#pragma once

#include <cstdint>
#include <string>

#include "core/fabric.h"
#include "core/gid.h"
#include "core/post_api.h"

namespace rdmabench {

struct PathInUse {
  std::string device;
  Fabric fabric = Fabric::kInfiniBand;
  std::string firmware;
  uint8_t port = 1;
  double link_speed_gbps = 0;  // active width x lane speed
  std::string link_width;      // "1X", "4X", ...
  uint32_t gid_index = 0;
  RawGid gid{};
  GidType gid_type = GidType::kIb;
  uint32_t mtu_bytes = 0;     // the path MTU
  uint8_t qp_timeout = 0;     // the local ACK timeout exponent (0: no retransmission timer)
  uint8_t outs = 0;           // RDMA reads and atomics kept in flight
  uint32_t inline_bytes = 0;  // the largest message posted inline
  bool srq = false;           // receives come from a shared receive queue
  PostApi post_api = PostApi::kClassic;  // the API sends go through: ex or classic
  uint8_t tclass = 0;                    // the address vector's GRH traffic class
  uint8_t sl = 0;                        // the service level
  uint32_t comp_vector = 0;              // its CQ's completion vector
  uint32_t comp_vectors = 0;             // the device's completion vectors
  uint64_t page_size = 0;                // its buffer's pages
};

}  // namespace rdmabench
