// Unreliable connected (IBV_QPT_UC): one QP per peer QP like RC, but nothing is acknowledged
// or retransmitted. A message that loses a packet, or finds no receive posted at the target
// (UC has no receiver-not-ready retry), is dropped whole and silently. SEND and RDMA WRITE
// (with or without immediate); no RDMA read or atomics.
#pragma once

#include "spec/transport.h"

namespace rdmabench {

inline constexpr TransportInfo kUcTransport{
    .name = "uc",
    .summary = "unreliable connected: nothing acknowledged, a lost message is gone; send, write",
    .qp_type = IBV_QPT_UC,
    .cm_port_space = RDMA_PS_TCP,
    .reliable = false,
    .connected = true,
    // The kernel's rdma_cm makes every RDMA_PS_TCP id an RC connection, and librdmacm's
    // rdma_accept then moves the QP with RC attributes: EINVAL on a UC QP (seen on rxe 6.1).
    .rdmacm_refusal =
        "rdma_cm connects RC only (RDMA_PS_TCP); rdma_accept of a UC QP fails "
        "with EINVAL",
    .init_mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS,
    .rtr_mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN,
    .rts_mask = IBV_QP_STATE | IBV_QP_SQ_PSN,
};

}  // namespace rdmabench
