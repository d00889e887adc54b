// Reliable connected (IBV_QPT_RC): every message acknowledged and retransmitted, one QP per
// peer QP; the only transport with RDMA read and atomics.
#pragma once

#include "spec/transport.h"

namespace rdmabench {

inline constexpr TransportInfo kRcTransport{
    .name = "rc",
    .summary = "reliable connected: acknowledged, retransmitted; every verb",
    .qp_type = IBV_QPT_RC,
    .cm_port_space = RDMA_PS_TCP,
    .reliable = true,
    .connected = true,
    .init_mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS,
    .rtr_mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER,
    .rts_mask = IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
                IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC,
};

}  // namespace rdmabench
