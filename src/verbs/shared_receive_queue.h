// A shared receive queue (ibv_srq): receives posted once, taken by whichever of its QPs a
// message arrives on (the completion's qp_num says which).
#pragma once

#include <infiniband/verbs.h>

#include <cstdint>

#include "verbs/protection_domain.h"
#include "verbs/verbs_error.h"

namespace rdmabench {

class SharedReceiveQueue {
 public:
  // Room for `depth` receives of one scatter entry each.
  SharedReceiveQueue(const ProtectionDomain& pd, uint32_t depth) {
    ibv_srq_init_attr attr{};
    attr.attr.max_wr = depth;
    attr.attr.max_sge = 1;
    srq_ = check_ptr(ibv_create_srq(pd.native(), &attr), "ibv_create_srq");
  }
  ~SharedReceiveQueue() {
    if (srq_ != nullptr) ibv_destroy_srq(srq_);
  }
  SharedReceiveQueue(const SharedReceiveQueue&) = delete;
  SharedReceiveQueue& operator=(const SharedReceiveQueue&) = delete;

  ibv_srq* native() const noexcept { return srq_; }

  // Hot path: no allocation, no logging. Throws on a refused post.
  void post(ibv_recv_wr& wr) {
    ibv_recv_wr* bad = nullptr;
    if (const int rc = ibv_post_srq_recv(srq_, &wr, &bad); rc != 0) [[unlikely]]
      throw_refused_post("ibv_post_srq_recv", rc);
  }

 private:
  ibv_srq* srq_ = nullptr;
};

}  // namespace rdmabench
