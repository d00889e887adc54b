// RDMA write with immediate. The data lands by RDMA in the peer's buffer and the immediate
// (a message sequence number) is consumed by a receive posted there, so the target sees a
// completion per message. bw: the sender streams, the target consumes and re-posts receives.
// lat: ping-pong of write-with-immediate both ways; reported as half the round trip.
#pragma once

#include "bench/sequenced_ping_pong.h"
#include "datapath/pattern.h"

namespace rdmabench {

class WriteImmPattern final : public SequencedPattern<WriteImmPattern> {
 public:
  static constexpr PatternInfo kInfo{
      .name = "write_imm",
      .summary = "RDMA WRITE with immediate: data by RDMA, the immediate into a posted receive",
      .opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
      .target_receives = true,
      .receive_holds_data = false,
      .immediate = Immediate::kSequence,
      .half_round_trip = true,
      .arrival = Arrival::kReceive,
      .remote_access = IBV_ACCESS_REMOTE_WRITE,
      .sizes = {},
      .needs = {.reliable = false, .connected = true}};

  // An out-of-order or wrong immediate counts as one error, plus any corrupt data bytes.
  static uint64_t check(QpStream& s, const ibv_wc& wc, uint64_t expected_seq) {
    const bool imm_ok = carries_sequence(wc, expected_seq);
    return (imm_ok ? 0 : 1) + check_slot(s, 0);
  }
};

}  // namespace rdmabench
