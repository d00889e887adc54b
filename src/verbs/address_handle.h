// An address handle (ibv_ah): where a datagram goes (the peer's port, LID and GID), made in a
// protection domain. A connected QP takes the same address vector at INIT->RTR.
#pragma once

#include <infiniband/verbs.h>

#include "verbs/context.h"
#include "verbs/protection_domain.h"
#include "verbs/queue_pair.h"
#include "verbs/verbs_error.h"

namespace rdmabench {

// The address vector that reaches `remote` over `path` (with a GRH when the path uses one).
ibv_ah_attr address_vector(const QpAddress& remote, const QpPath& path);

// Where a received datagram came from, as libibverbs reads it (ibv_init_ah_from_wc): the
// sender's QP number, its LID, and its GID where the datagram carried a GRH (`global`).
struct DatagramSender {
  uint32_t qp_number = 0;
  uint16_t lid = 0;
  bool global = false;
  RawGid gid{};
};
// The sender of the datagram whose completion is `wc`, received on `port`; `grh`: the 40 bytes
// of receive header room the device filled (a GRH, or RoCE v2's IPv4 header in its last 20).
DatagramSender datagram_sender(const Context& context, uint8_t port, const ibv_wc& wc,
                               const uint8_t* grh);

class AddressHandle {
 public:
  AddressHandle(const ProtectionDomain& pd, const QpAddress& remote, const QpPath& path);
  ~AddressHandle() {
    if (ah_ != nullptr) ibv_destroy_ah(ah_);
  }
  AddressHandle(const AddressHandle&) = delete;
  AddressHandle& operator=(const AddressHandle&) = delete;

  ibv_ah* native() const noexcept { return ah_; }

 private:
  ibv_ah* ah_ = nullptr;
};

}  // namespace rdmabench
