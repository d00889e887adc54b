#include "verbs/queue_pair.h"

#include "verbs/address_handle.h"
#include "verbs/cm_id.h"
#include "verbs/shared_receive_queue.h"

namespace rdmabench {

namespace {
ibv_qp_init_attr init_attr(Transport transport, CompletionQueue& cq, const QpCapacity& capacity) {
  ibv_qp_init_attr attr{};
  attr.send_cq = cq.native();
  attr.recv_cq = cq.native();
  attr.qp_type = transport->qp_type;
  attr.sq_sig_all = 0;
  attr.cap.max_send_wr = capacity.max_send_wr;
  attr.cap.max_recv_wr = capacity.max_recv_wr;
  attr.cap.max_send_sge = 1;
  attr.cap.max_recv_sge = 1;
  attr.cap.max_inline_data = capacity.max_inline_data;
  if (capacity.srq != nullptr) {
    attr.srq = capacity.srq->native();
    attr.cap.max_recv_wr = 0;
  }
  return attr;
}

// The send operations a QP of `transport` is created for in the extended API: what the
// transport carries (rxe and mlx5 refuse a UC or UD QP asked for more).
uint64_t send_operations(Transport transport) {
  uint64_t ops = IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM;
  if (transport->connected) ops |= IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM;
  if (transport->connected && transport->reliable)
    ops |= IBV_QP_EX_WITH_RDMA_READ | IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD |
           IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP;
  return ops;
}

ibv_qp_init_attr_ex extended_attr(const ibv_qp_init_attr& attr, const ProtectionDomain& pd,
                                  Transport transport) {
  ibv_qp_init_attr_ex ex{};
  ex.send_cq = attr.send_cq;
  ex.recv_cq = attr.recv_cq;
  ex.srq = attr.srq;
  ex.cap = attr.cap;
  ex.qp_type = attr.qp_type;
  ex.sq_sig_all = attr.sq_sig_all;
  ex.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
  ex.pd = pd.native();
  ex.send_ops_flags = send_operations(transport);
  return ex;
}
}  // namespace

bool QueuePair::create_extended(const ibv_qp_init_attr& attr, const ProtectionDomain& pd,
                                rdma_cm_id* id, PostApi api) {
  ibv_qp_init_attr_ex ex = extended_attr(attr, pd, transport_);
  errno = 0;
  if (id != nullptr) {
    if (rdma_create_qp_ex(id, &ex) == 0) qp_ = id->qp;
  } else {
    qp_ = ibv_create_qp_ex(pd.native()->context, &ex);
  }
  if (qp_ == nullptr) {
    if (api == PostApi::kAuto) return false;
    throw VerbsError(id != nullptr ? "rdma_create_qp_ex" : "ibv_create_qp_ex",
                     errno != 0 ? errno : EOPNOTSUPP,
                     "--post-api ex: the device does not create a QP that posts through the "
                     "extended API; use --post-api classic (or auto)");
  }
  extended_ = ibv_qp_to_qp_ex(qp_);
  max_inline_ = ex.cap.max_inline_data;
  return true;
}

QueuePair::QueuePair(Transport transport, const ProtectionDomain& pd, CompletionQueue& cq,
                     const QpCapacity& capacity)
    : transport_(transport) {
  ibv_qp_init_attr attr = init_attr(transport, cq, capacity);
  if (capacity.post_api != PostApi::kClassic &&
      create_extended(attr, pd, nullptr, capacity.post_api))
    return;
  errno = 0;  // not the extended create's refusal, if this one sets none
  qp_ = check_ptr(ibv_create_qp(pd.native(), &attr), "ibv_create_qp");
  max_inline_ = attr.cap.max_inline_data;
}

QueuePair::QueuePair(Transport transport, CmId& id, const ProtectionDomain& pd, CompletionQueue& cq,
                     const QpCapacity& capacity)
    : transport_(transport) {
  ibv_qp_init_attr attr = init_attr(transport, cq, capacity);
  cm_id_ = id.native();
  if (capacity.post_api != PostApi::kClassic &&
      create_extended(attr, pd, cm_id_, capacity.post_api))
    return;
  errno = 0;  // not the extended create's refusal (siw's EOPNOTSUPP), if this one sets none
  check_call(rdma_create_qp(id.native(), pd.native(), &attr), "rdma_create_qp");
  qp_ = cm_id_->qp;
  max_inline_ = attr.cap.max_inline_data;
}

QueuePair::~QueuePair() {
  if (cm_id_ != nullptr) {
    rdma_destroy_qp(cm_id_);
  } else if (qp_ != nullptr) {
    ibv_destroy_qp(qp_);
  }
}

void QueuePair::to_init(uint8_t port, int access) {
  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_INIT;
  attr.pkey_index = 0;
  attr.port_num = port;
  attr.qp_access_flags = static_cast<unsigned>(access);
  attr.qkey = kQkey;
  check_call(ibv_modify_qp(qp_, &attr, transport_->init_mask), "ibv_modify_qp", "RESET->INIT");
}

void QueuePair::to_rtr(const QpAddress& remote, const QpPath& path) {
  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_RTR;
  attr.path_mtu = path.mtu;
  attr.dest_qp_num = remote.qp_number;
  attr.rq_psn = remote.psn;
  attr.max_dest_rd_atomic = path.rd_atomic;
  attr.min_rnr_timer = 12;  // 0.64 ms
  attr.ah_attr = address_vector(remote, path);
  check_call(ibv_modify_qp(qp_, &attr, transport_->rtr_mask), "ibv_modify_qp", "INIT->RTR");
}

void QueuePair::to_rts(uint32_t psn, const QpPath& path) {
  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_RTS;
  attr.sq_psn = psn;
  attr.timeout = path.ack_timeout;  // 4.096 us * 2^n per retry (14: 67 ms), 0: none
  attr.retry_cnt = 7;
  attr.rnr_retry = 7;  // retry forever when the receiver has no receive posted yet
  attr.max_rd_atomic = path.rd_atomic;
  check_call(ibv_modify_qp(qp_, &attr, transport_->rts_mask), "ibv_modify_qp", "RTR->RTS");
}

void QueuePair::to_error() noexcept {
  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_ERR;
  ibv_modify_qp(qp_, &attr, IBV_QP_STATE);
}

uint8_t port_in_use(uint8_t qp_port, uint8_t address_vector_port, uint8_t bound_port) {
  if (qp_port != 0) return qp_port;
  return address_vector_port != 0 ? address_vector_port : bound_port;
}

QpPathInUse QueuePair::path_in_use(uint8_t bound_port) const {
  ibv_qp_attr attr{};
  ibv_qp_init_attr init{};
  // A datagram QP has no path of its own (each send's address handle is its path).
  const int mask = transport_->connected ? IBV_QP_PORT | IBV_QP_AV | IBV_QP_PATH_MTU |
                                               IBV_QP_TIMEOUT | IBV_QP_MAX_QP_RD_ATOMIC
                                         : IBV_QP_PORT;
  check_call(ibv_query_qp(qp_, &attr, mask, &init), "ibv_query_qp");
  QpPathInUse path;
  path.port = port_in_use(attr.port_num, attr.ah_attr.port_num, bound_port);
  path.sgid_index = attr.ah_attr.grh.sgid_index;
  path.mtu_bytes = transport_->connected ? 128u << attr.path_mtu : 0;  // IBV_MTU_256 is 1
  path.ack_timeout = attr.timeout;
  path.max_rd_atomic = attr.max_rd_atomic;
  path.traffic_class = attr.ah_attr.grh.traffic_class;
  path.service_level = attr.ah_attr.sl;
  path.shared_receive_queue = init.srq != nullptr;
  return path;
}

}  // namespace rdmabench
