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

// The operation `op` of `wr`, with its remote address and operands: the one place each
// ibv_wr_<operation> call is made, for the general path and a post list's alike.
template <ibv_wr_opcode op>
[[gnu::always_inline]] inline void say_operation(ibv_qp_ex& qp, const ibv_send_wr& wr) noexcept {
  if constexpr (op == IBV_WR_SEND) ibv_wr_send(&qp);
  if constexpr (op == IBV_WR_SEND_WITH_IMM) ibv_wr_send_imm(&qp, wr.imm_data);
  if constexpr (op == IBV_WR_RDMA_WRITE)
    ibv_wr_rdma_write(&qp, wr.wr.rdma.rkey, wr.wr.rdma.remote_addr);
  if constexpr (op == IBV_WR_RDMA_WRITE_WITH_IMM)
    ibv_wr_rdma_write_imm(&qp, wr.wr.rdma.rkey, wr.wr.rdma.remote_addr, wr.imm_data);
  if constexpr (op == IBV_WR_RDMA_READ)
    ibv_wr_rdma_read(&qp, wr.wr.rdma.rkey, wr.wr.rdma.remote_addr);
  if constexpr (op == IBV_WR_ATOMIC_FETCH_AND_ADD)
    ibv_wr_atomic_fetch_add(&qp, wr.wr.atomic.rkey, wr.wr.atomic.remote_addr,
                            wr.wr.atomic.compare_add);
  if constexpr (op == IBV_WR_ATOMIC_CMP_AND_SWP)
    ibv_wr_atomic_cmp_swp(&qp, wr.wr.atomic.rkey, wr.wr.atomic.remote_addr,
                          wr.wr.atomic.compare_add, wr.wr.atomic.swap);
}

// The request's operation, chosen by its opcode; false for an operation the extended API has
// no call for here (the patterns never build one).
inline bool add_operation(ibv_qp_ex& qp, const ibv_send_wr& wr) noexcept {
  switch (wr.opcode) {
    case IBV_WR_SEND:
      say_operation<IBV_WR_SEND>(qp, wr);
      return true;
    case IBV_WR_SEND_WITH_IMM:
      say_operation<IBV_WR_SEND_WITH_IMM>(qp, wr);
      return true;
    case IBV_WR_RDMA_WRITE:
      say_operation<IBV_WR_RDMA_WRITE>(qp, wr);
      return true;
    case IBV_WR_RDMA_WRITE_WITH_IMM:
      say_operation<IBV_WR_RDMA_WRITE_WITH_IMM>(qp, wr);
      return true;
    case IBV_WR_RDMA_READ:
      say_operation<IBV_WR_RDMA_READ>(qp, wr);
      return true;
    case IBV_WR_ATOMIC_FETCH_AND_ADD:
      say_operation<IBV_WR_ATOMIC_FETCH_AND_ADD>(qp, wr);
      return true;
    case IBV_WR_ATOMIC_CMP_AND_SWP:
      say_operation<IBV_WR_ATOMIC_CMP_AND_SWP>(qp, wr);
      return true;
    default:
      return false;
  }
}

// A datagram's destination (its address handle, QP and Q_Key).
[[gnu::always_inline]] inline void say_destination(ibv_qp_ex& qp, const ibv_send_wr& wr) noexcept {
  ibv_wr_set_ud_addr(&qp, wr.wr.ud.ah, wr.wr.ud.remote_qpn, wr.wr.ud.remote_qkey);
}

// How a request carries its data: none, its one scatter entry, or inline (copied now).
enum class DataKind { kNone, kSge, kInline };

// The data of kind `data` from `sge`: the one place each data setter is called.
template <DataKind data>
[[gnu::always_inline]] inline void say_data(ibv_qp_ex& qp, const ibv_sge& sge) noexcept {
  if constexpr (data == DataKind::kNone) ibv_wr_set_sge_list(&qp, 0, nullptr);
  if constexpr (data == DataKind::kSge) ibv_wr_set_sge(&qp, sge.lkey, sge.addr, sge.length);
  if constexpr (data == DataKind::kInline)
    ibv_wr_set_inline_data(&qp, reinterpret_cast<void*>(sge.addr), sge.length);
}

// The request's payload, its kind read from the request.
inline void add_data(ibv_qp_ex& qp, const ibv_send_wr& wr) noexcept {
  if (wr.num_sge == 0) return say_data<DataKind::kNone>(qp, ibv_sge{});
  if ((wr.send_flags & IBV_SEND_INLINE) != 0) return say_data<DataKind::kInline>(qp, wr.sg_list[0]);
  say_data<DataKind::kSge>(qp, wr.sg_list[0]);
}

// One request said to the QP between ibv_wr_start and ibv_wr_complete: its id and flags, its
// operation, its destination when `datagram`, its data. False (nothing said): an operation
// with no extended call.
inline bool add_request(ibv_qp_ex& qp, const ibv_send_wr& wr, bool datagram) noexcept {
  qp.wr_id = wr.wr_id;
  qp.wr_flags = wr.send_flags;
  if (!add_operation(qp, wr)) return false;
  if (datagram) say_destination(qp, wr);
  add_data(qp, wr);
  return true;
}

// A post list's requests said one by one, with what they share settled at compile time: the
// operation `op`, how the data goes, whether each names a destination, and whose scatter entry
// it is: `shared`'s, the list's one payload, or with `own_entry` each request's own (where a
// read or an atomic's fetched value lands; `shared` unread). Per request only its own fields
// are read (id, flags, immediate, atomic operands, and its entry when `own_entry`).
template <ibv_wr_opcode op, DataKind data, bool datagram, bool own_entry, typename Request>
[[gnu::always_inline]] inline void add_alike(ibv_qp_ex& qp, uint32_t count, const ibv_sge* shared,
                                             Request& request) {
  for (uint32_t k = 0; k < count; ++k) {
    const ibv_send_wr& wr = request(k);
    qp.wr_id = wr.wr_id;
    qp.wr_flags = wr.send_flags;
    say_operation<op>(qp, wr);
    if constexpr (datagram) say_destination(qp, wr);
    if constexpr (own_entry)
      say_data<data>(qp, wr.sg_list[0]);
    else
      say_data<data>(qp, *shared);
  }
}

// Whether add_payloads has a specialisation for a list of `shape` (one scatter entry; a
// datagram's destination for sends only).
template <ibv_wr_opcode op>
inline bool payloads_fit(const ibv_send_wr& shape, bool datagram) noexcept {
  const bool sends = op == IBV_WR_SEND || op == IBV_WR_SEND_WITH_IMM;
  return shape.num_sge == 1 && (sends || !datagram);
}

// add_alike for an operation that carries a payload (payloads_fit), its data kind and
// destination settled from the list's shape.
template <ibv_wr_opcode op, typename Request>
[[gnu::always_inline]] inline void add_payloads(ibv_qp_ex& qp, uint32_t count,
                                                const ibv_send_wr& shape, bool datagram,
                                                Request& request) {
  const ibv_sge* sge = &shape.sg_list[0];
  const bool inlined = (shape.send_flags & IBV_SEND_INLINE) != 0;
  if constexpr (op == IBV_WR_SEND || op == IBV_WR_SEND_WITH_IMM) {
    if (datagram) {
      inlined ? add_alike<op, DataKind::kInline, true, false>(qp, count, sge, request)
              : add_alike<op, DataKind::kSge, true, false>(qp, count, sge, request);
      return;
    }
  }
  inlined ? add_alike<op, DataKind::kInline, false, false>(qp, count, sge, request)
          : add_alike<op, DataKind::kSge, false, false>(qp, count, sge, request);
}

// Whether add_own_entries has a specialisation for a list of `shape` (one scatter entry, not
// inline, no datagram).
inline bool own_entries_fit(const ibv_send_wr& shape, bool datagram) noexcept {
  return !datagram && shape.num_sge == 1 && (shape.send_flags & IBV_SEND_INLINE) == 0;
}

// A read's or an atomic's requests said one by one (own_entries_fit): each one's scatter entry
// is its own (where its read lands, where its fetched value lands), its operation `op`
// settled at compile time.
template <ibv_wr_opcode op, typename Request>
[[gnu::always_inline]] inline void add_own_entries(ibv_qp_ex& qp, uint32_t count,
                                                   Request& request) {
  add_alike<op, DataKind::kSge, false, true>(qp, count, nullptr, request);
}

// The requests one by one, each as it comes (any operation, data and destination). False: an
// operation with no extended call (nothing said from it on).
template <typename Request>
bool add_each(ibv_qp_ex& qp, uint32_t count, bool datagram, Request& request) {
  for (uint32_t k = 0; k < count; ++k)
    if (!add_request(qp, request(k), datagram)) return false;
  return true;
}

// `posts` posts, each the requests add() says between ibv_wr_start and ibv_wr_complete. Returns
// 0, or the first failed post's errno value (the posts before it were posted, none after);
// EINVAL, that post aborted, when add() returns false (an operation with no extended call).
// Forced inline, as the adders handed to it are: a call a post costs what the fill saves.
template <typename Add>
[[gnu::always_inline]] inline int post_each(ibv_qp_ex& qp, uint64_t posts, Add&& add) {
  for (uint64_t p = 0; p < posts; ++p) {
    ibv_wr_start(&qp);
    if (!add()) [[unlikely]] {
      ibv_wr_abort(&qp);
      return EINVAL;
    }
    if (const int rc = ibv_wr_complete(&qp); rc != 0) [[unlikely]]
      return rc;
  }
  return 0;
}

// post_each of add_payloads<op>.
template <ibv_wr_opcode op, typename Request>
[[gnu::always_inline]] inline int post_payloads(ibv_qp_ex& qp, uint64_t posts, uint32_t count,
                                                const ibv_send_wr& shape, bool datagram,
                                                Request& request) {
  return post_each(
      qp, posts, [&]() __attribute__((always_inline)) {
        add_payloads<op>(qp, count, shape, datagram, request);
        return true;
      });
}

// post_each of add_own_entries<op>.
template <ibv_wr_opcode op, typename Request>
[[gnu::always_inline]] inline int post_own_entries(ibv_qp_ex& qp, uint64_t posts, uint32_t count,
                                                   Request& request) {
  return post_each(
      qp, posts, [&]() __attribute__((always_inline)) {
        add_own_entries<op>(qp, count, request);
        return true;
      });
}

// post_each of add_each (any request, each as it comes).
template <typename Request>
int post_each_generally(ibv_qp_ex& qp, uint64_t posts, uint32_t count, bool datagram,
                        Request& request) {
  return post_each(qp, posts, [&] { return add_each(qp, count, datagram, request); });
}

}  // namespace extended_post_detail

// Posts `posts` times `count` requests on `qp`, `count` a post, in one pass: request(k) readies
// the k-th of the post under way and returns it, and it is said to the QP before the next is
// asked for (so request may hand back the same ibv_send_wr each time). Every request has
// `shape`'s operation and inline flag, and a send's or write's has its scatter entry too (a
// post list's: only ids, flags' signalling, immediates, atomic operands and the landing
// address of a read or an atomic differ), so those are settled once for all the posts, not
// tested again per post or per request. `datagram`: each request names its destination
// (wr.ud). Returns 0, or the errno value of the first post that failed (the posts before it
// were posted, it and those after were not; EINVAL: an operation with no extended call).
template <typename Request>
[[gnu::always_inline]] inline int post_extended_each(ibv_qp_ex& qp, uint64_t posts, uint32_t count,
                                                     const ibv_send_wr& shape, bool datagram,
                                                     Request&& request) {
  using namespace extended_post_detail;
  switch (shape.opcode) {
    case IBV_WR_SEND:
      if (!payloads_fit<IBV_WR_SEND>(shape, datagram)) break;
      return post_payloads<IBV_WR_SEND>(qp, posts, count, shape, datagram, request);
    case IBV_WR_SEND_WITH_IMM:
      if (!payloads_fit<IBV_WR_SEND_WITH_IMM>(shape, datagram)) break;
      return post_payloads<IBV_WR_SEND_WITH_IMM>(qp, posts, count, shape, datagram, request);
    case IBV_WR_RDMA_WRITE:
      if (!payloads_fit<IBV_WR_RDMA_WRITE>(shape, datagram)) break;
      return post_payloads<IBV_WR_RDMA_WRITE>(qp, posts, count, shape, datagram, request);
    case IBV_WR_RDMA_WRITE_WITH_IMM:
      if (!payloads_fit<IBV_WR_RDMA_WRITE_WITH_IMM>(shape, datagram)) break;
      return post_payloads<IBV_WR_RDMA_WRITE_WITH_IMM>(qp, posts, count, shape, datagram, request);
    case IBV_WR_RDMA_READ:
      if (!own_entries_fit(shape, datagram)) break;
      return post_own_entries<IBV_WR_RDMA_READ>(qp, posts, count, request);
    case IBV_WR_ATOMIC_FETCH_AND_ADD:
      if (!own_entries_fit(shape, datagram)) break;
      return post_own_entries<IBV_WR_ATOMIC_FETCH_AND_ADD>(qp, posts, count, request);
    case IBV_WR_ATOMIC_CMP_AND_SWP:
      if (!own_entries_fit(shape, datagram)) break;
      return post_own_entries<IBV_WR_ATOMIC_CMP_AND_SWP>(qp, posts, count, request);
    default:
      break;
  }
  return post_each_generally(qp, posts, count, datagram, request);
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
