// An address handle (ibv_ah): where a datagram goes (the peer's port, LID and GID), made in a
// protection domain. A connected QP takes the same address vector at INIT->RTR.
#pragma once

#include <infiniband/verbs.h>

#include "verbs/protection_domain.h"
#include "verbs/queue_pair.h"
#include "verbs/verbs_error.h"

namespace rdmabench {

// The address vector that reaches `remote` over `path` (with a GRH when the path uses one).
ibv_ah_attr address_vector(const QpAddress& remote, const QpPath& path);

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
