// Protection domain (ibv_pd).
#pragma once

#include <infiniband/verbs.h>

#include <utility>

#include "verbs/context.h"
#include "verbs/verbs_error.h"

namespace rdmabench {

class ProtectionDomain {
 public:
  explicit ProtectionDomain(const Context& context)
      : pd_(check_ptr(ibv_alloc_pd(context.native()), "ibv_alloc_pd", context.device_name())) {}
  ~ProtectionDomain() {
    if (pd_ != nullptr) ibv_dealloc_pd(pd_);
  }
  ProtectionDomain(const ProtectionDomain&) = delete;
  ProtectionDomain& operator=(const ProtectionDomain&) = delete;

  ibv_pd* native() const noexcept { return pd_; }

 private:
  ibv_pd* pd_;
};

}  // namespace rdmabench
