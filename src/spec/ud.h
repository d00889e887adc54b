// Unreliable datagram (IBV_QPT_UD): one QP may reach any peer QP; each send names its
// destination by an address handle, QP number and Q_Key. Nothing is acknowledged or
// retransmitted, a message is one packet (at most the path MTU), and every receive buffer
// starts with 40 bytes the device fills with the Global Routing Header. SEND only (with or
// without immediate): no RDMA write, read or atomics.
#pragma once

#include "spec/transport.h"

namespace rdmabench {

inline constexpr uint32_t kGrhBytes = 40;

inline constexpr TransportInfo kUdTransport{
    .name = "ud",
    .summary =
        "unreliable datagram: one packet per message (at most the MTU), nothing "
        "acknowledged; send",
    .qp_type = IBV_QPT_UD,
    .cm_port_space = RDMA_PS_UDP,
    .reliable = false,
    .connected = false,
    .receive_header_bytes = kGrhBytes,
    .one_packet_messages = true,
    // rdma_cm resolves a UD peer by a SIDR exchange (RDMA_PS_UDP) that yields an address
    // handle, not a connection; rdmabench's rdma_cm flow connects QPs.
    .rdmacm_refusal =
        "rdmabench's rdma_cm flow connects QPs; a UD peer comes from an address handle "
        "(rdma_cm's SIDR exchange is not implemented)",
    .init_mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY,
    .rtr_mask = IBV_QP_STATE,
    .rts_mask = IBV_QP_STATE | IBV_QP_SQ_PSN,
};

}  // namespace rdmabench
