// A queue pair (ibv_qp) of any registered transport (transport.h): creation, the
// RESET->INIT->RTR->RTS moves (each setting the attributes its transport takes), posting.
#pragma once

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include <cstdint>

#include "core/gid.h"
#include "core/post_api.h"
#include "spec/transport.h"
#include "verbs/completion_queue.h"
#include "verbs/extended_post.h"
#include "verbs/protection_domain.h"
#include "verbs/verbs_error.h"

namespace rdmabench {

class CmId;

class SharedReceiveQueue;

struct QpCapacity {
  uint32_t max_send_wr = 128;
  uint32_t max_recv_wr = 128;  // ignored when the QP takes its receives from `srq`
  uint32_t max_inline_data = 0;
  const SharedReceiveQueue* srq = nullptr;  // a shared receive queue instead of its own
  // How its sends are posted (auto: through the extended API where the device creates such a
  // QP; ex: that or an error; classic: ibv_post_send).
  PostApi post_api = PostApi::kAuto;
};

// What one side tells the other in the out-of-band exchange.
struct QpAddress {
  uint32_t qp_number = 0;
  uint32_t psn = 0;
  uint16_t lid = 0;
  RawGid gid{};
};

// The Q_Key every datagram QP takes and every datagram send names (a transport without
// datagrams ignores it).
inline constexpr uint32_t kQkey = 0x11111111;

struct QpPath {
  uint8_t port = 1;
  uint32_t sgid_index = 0;
  ibv_mtu mtu = IBV_MTU_1024;
  uint8_t rd_atomic = 16;     // outstanding RDMA reads, each direction
  bool use_grh = true;        // RoCE always; InfiniBand only across subnets
  uint8_t ack_timeout = 14;   // local ACK timeout, 4.096 us x 2^n per retry; 0 = no timer
  uint8_t traffic_class = 0;  // the GRH's (RoCE v2: the IP DSCP and ECN byte)
  uint8_t service_level = 0;
};

// The path a connected QP really uses (whichever bootstrap set it up).
// The port a QP's traffic uses: the one ibv_query_qp reports (as its own port, or its address
// vector's), else, where it reports none (rdma-core's siw provider answers 0, as iWARP QPs
// set up by rdma_cm may), the port the QP was bound to (rdma_cm's id, or --ib-port).
uint8_t port_in_use(uint8_t qp_port, uint8_t address_vector_port, uint8_t bound_port);

struct QpPathInUse {
  uint8_t port = 0;
  uint32_t sgid_index = 0;
  uint32_t mtu_bytes = 0;
  uint8_t ack_timeout = 0;    // the local ACK timeout exponent (0: no retransmission timer)
  uint8_t max_rd_atomic = 0;  // RDMA reads and atomics this QP keeps in flight
  uint8_t traffic_class = 0;  // its address vector's GRH traffic class
  uint8_t service_level = 0;
  bool shared_receive_queue = false;  // its receives come from an SRQ (ibv_query_qp says so)
};

// One post's `count` requests as ibv_post_send takes them: request(k) readies the k-th and
// returns it (each its own), linked by next in that order; the first is returned.
template <typename Request>
[[gnu::always_inline]] inline ibv_send_wr& link_chain(uint32_t count, Request& request) {
  ibv_send_wr& first = request(0);
  ibv_send_wr* last = &first;
  for (uint32_t k = 1; k < count; ++k) last = last->next = &request(k);
  last->next = nullptr;
  return first;
}

class QueuePair {
 public:
  // A QP moved through its states by hand (out-of-band bootstrap).
  QueuePair(Transport transport, const ProtectionDomain& pd, CompletionQueue& cq,
            const QpCapacity& capacity);
  // A QP that rdma_cm moves through its states (rdma_create_qp on the CM id).
  QueuePair(Transport transport, CmId& id, const ProtectionDomain& pd, CompletionQueue& cq,
            const QpCapacity& capacity);
  ~QueuePair();
  QueuePair(const QueuePair&) = delete;
  QueuePair& operator=(const QueuePair&) = delete;

  uint32_t number() const noexcept { return qp_->qp_num; }
  uint32_t max_inline_data() const noexcept { return max_inline_; }
  Transport transport() const noexcept { return transport_; }
  // The API its sends really go through: kExtended or kClassic.
  PostApi post_api() const noexcept {
    return extended_ != nullptr ? PostApi::kExtended : PostApi::kClassic;
  }

  // RESET->INIT on `port`, granting `access` (IBV_ACCESS_* flags).
  void to_init(uint8_t port, int access);
  void to_rtr(const QpAddress& remote, const QpPath& path);
  void to_rts(uint32_t psn, const QpPath& path);
  // To the error state, whatever the state now: every outstanding work request completes
  // with a flush error. For a fatal device event; a failure is left for the run to meet.
  void to_error() noexcept;
  // ibv_query_qp: port, source GID index and path MTU, once the QP is at RTR or beyond.
  // `bound_port`: the port the QP was built on, where the QP itself reports none.
  QpPathInUse path_in_use(uint8_t bound_port) const;

  // Hot path: no allocation, no logging. Throws on a refused post (queue full, QP in error).
  // The chain at `wr` goes through the QP's posting API, in one post either way.
  void post_send(ibv_send_wr& wr) {
    if (extended_ != nullptr) {
      if (const int rc = post_extended(*extended_, wr, !transport_->connected); rc != 0)
          [[unlikely]]
        throw_refused_post("ibv_wr_complete", rc);
      return;
    }
    ibv_send_wr* bad = nullptr;
    if (const int rc = ibv_post_send(qp_, &wr, &bad); rc != 0) [[unlikely]]
      throw_refused_post("ibv_post_send", rc);
  }
  // `posts` posts of `count` requests each, request(k) readying the k-th of the post under
  // way and returning it, each of `shape`'s operation and inline flag: through the extended
  // API each is said to the QP as it is readied (one pass, the shape settled once for all the
  // posts); through ibv_post_send each post's are linked by next as they come and posted as
  // one chain (so each k must hand back a request of its own).
  template <typename Request>
  [[gnu::always_inline]] void post_sends(uint64_t posts, uint32_t count, const ibv_send_wr& shape,
                                         Request&& request) {
    if (extended_ != nullptr) {
      if (const int rc =
              post_extended_each(*extended_, posts, count, shape, !transport_->connected, request);
          rc != 0) [[unlikely]]
        throw_refused_post("ibv_wr_complete", rc);
      return;
    }
    for (uint64_t p = 0; p < posts; ++p) post_send(link_chain(count, request));
  }
  void post_recv(ibv_recv_wr& wr) {
    ibv_recv_wr* bad = nullptr;
    if (const int rc = ibv_post_recv(qp_, &wr, &bad); rc != 0) [[unlikely]]
      throw_refused_post("ibv_post_recv", rc);
  }

 private:
  // Creates the QP through ibv_create_qp_ex (or rdma_create_qp_ex on `id`) with the send
  // operations of its transport; false when the device refuses and `api` is auto.
  bool create_extended(const ibv_qp_init_attr& attr, const ProtectionDomain& pd, rdma_cm_id* id,
                       PostApi api);

  Transport transport_;
  ibv_qp* qp_ = nullptr;
  ibv_qp_ex* extended_ = nullptr;  // set when sends go through the extended API
  rdma_cm_id* cm_id_ = nullptr;    // set when rdma_cm owns the QP
  uint32_t max_inline_ = 0;
};

}  // namespace rdmabench
