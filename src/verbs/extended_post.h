// Posting through the extended send API (ibv_wr_start, one ibv_wr_<operation> and its data
// setter per request, ibv_wr_complete), the way perftest posts by default: each request the
// classic path would hand to ibv_post_send said in ibv_wr_* calls inside one start/complete.
// A post list is built in one pass: each request is said to the QP as soon as it is readied
// (post_extended_each), never readied as a whole chain first and then walked again. Every
// request the patterns build carries at most one scatter entry (the QP is created with
// max_send_sge 1). Hot path: inline, no allocation.
#pragma once

#include <infiniband/verbs.h>

#include <cerrno>

namespace rdmabench {

namespace extended_post_detail {

// The request's operation, with its remote address and operands; false for an operation the
// extended API has no call for here (the patterns never build one).
inline bool add_operation(ibv_qp_ex& qp, const ibv_send_wr& wr) noexcept {
  switch (wr.opcode) {
    case IBV_WR_SEND:
      ibv_wr_send(&qp);
      return true;
    case IBV_WR_SEND_WITH_IMM:
      ibv_wr_send_imm(&qp, wr.imm_data);
      return true;
    case IBV_WR_RDMA_WRITE:
      ibv_wr_rdma_write(&qp, wr.wr.rdma.rkey, wr.wr.rdma.remote_addr);
      return true;
    case IBV_WR_RDMA_WRITE_WITH_IMM:
      ibv_wr_rdma_write_imm(&qp, wr.wr.rdma.rkey, wr.wr.rdma.remote_addr, wr.imm_data);
      return true;
    case IBV_WR_RDMA_READ:
      ibv_wr_rdma_read(&qp, wr.wr.rdma.rkey, wr.wr.rdma.remote_addr);
      return true;
    case IBV_WR_ATOMIC_FETCH_AND_ADD:
      ibv_wr_atomic_fetch_add(&qp, wr.wr.atomic.rkey, wr.wr.atomic.remote_addr,
                              wr.wr.atomic.compare_add);
      return true;
    case IBV_WR_ATOMIC_CMP_AND_SWP:
      ibv_wr_atomic_cmp_swp(&qp, wr.wr.atomic.rkey, wr.wr.atomic.remote_addr,
                            wr.wr.atomic.compare_add, wr.wr.atomic.swap);
      return true;
    default:
      return false;
  }
}

// The request's payload: inline (copied now), its one scatter entry, or none.
inline void add_data(ibv_qp_ex& qp, const ibv_send_wr& wr) noexcept {
  if (wr.num_sge == 0) return ibv_wr_set_sge_list(&qp, 0, nullptr);
  const ibv_sge& sge = wr.sg_list[0];
  if ((wr.send_flags & IBV_SEND_INLINE) != 0)
    return ibv_wr_set_inline_data(&qp, reinterpret_cast<void*>(sge.addr), sge.length);
  ibv_wr_set_sge(&qp, sge.lkey, sge.addr, sge.length);
}

// One request said to the QP between ibv_wr_start and ibv_wr_complete: its id and flags, its
// operation, its destination when `datagram`, its data. False (nothing said): an operation
// with no extended call.
inline bool add_request(ibv_qp_ex& qp, const ibv_send_wr& wr, bool datagram) noexcept {
  qp.wr_id = wr.wr_id;
  qp.wr_flags = wr.send_flags;
  if (!add_operation(qp, wr)) return false;
  if (datagram) ibv_wr_set_ud_addr(&qp, wr.wr.ud.ah, wr.wr.ud.remote_qpn, wr.wr.ud.remote_qkey);
  add_data(qp, wr);
  return true;
}

}  // namespace extended_post_detail

// Posts `count` requests on `qp` in one post and one pass: request(k) readies the k-th and
// returns it, and it is said to the QP before the next is asked for (so request may hand back
// the same ibv_send_wr each time). `datagram`: each request names its destination (wr.ud).
// Returns ibv_wr_complete's result: 0, or an errno value, in which case none of them was
// posted (EINVAL: an operation with no extended call).
template <typename Request>
[[gnu::always_inline]] inline int post_extended_each(ibv_qp_ex& qp, uint32_t count, bool datagram,
                                                     Request&& request) {
  ibv_wr_start(&qp);
  for (uint32_t k = 0; k < count; ++k) {
    if (!extended_post_detail::add_request(qp, request(k), datagram)) [[unlikely]] {
      ibv_wr_abort(&qp);
      return EINVAL;
    }
  }
  return ibv_wr_complete(&qp);
}

// Posts the chain that starts at `first` (linked by next) on `qp`, as post_extended_each.
inline int post_extended(ibv_qp_ex& qp, const ibv_send_wr& first, bool datagram) noexcept {
  ibv_wr_start(&qp);
  for (const ibv_send_wr* wr = &first; wr != nullptr; wr = wr->next) {
    if (!extended_post_detail::add_request(qp, *wr, datagram)) {
      ibv_wr_abort(&qp);
      return EINVAL;
    }
  }
  return ibv_wr_complete(&qp);
}

}  // namespace rdmabench
