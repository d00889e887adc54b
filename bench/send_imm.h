// SEND with immediate (perftest's --send_with_imm). The payload lands in a receive posted at
// the target, as with send, and each message also carries its sequence number as the
// immediate, which the receiver checks under --verify. bw: the sender streams, the target
// consumes and re-posts receives. lat: ping-pong both ways; reported as half the round trip.
#pragma once

#include "bench/sequenced_ping_pong.h"
#include "datapath/pattern.h"

namespace rdmabench {

class SendImmPattern final : public SequencedPattern<SendImmPattern> {
 public:
  static constexpr PatternInfo kInfo{
      .name = "send_imm",
      .summary = "SEND with immediate: payload and a sequence number (ib_send_bw --send_with_imm)",
      .opcode = IBV_WR_SEND_WITH_IMM,
      .target_receives = true,
      .receive_holds_data = true,
      .immediate = Immediate::kSequence,
      .half_round_trip = true,
      .arrival = Arrival::kReceive,
      .remote_access = 0,
      .sizes = {},
      .needs = {}};

  // A wrong or missing immediate, or a wrong length, counts as one error each, plus any
  // corrupt payload bytes in the receive's slot.
  static uint64_t check(QpStream& s, const ibv_wc& wc, uint64_t expected_seq) {
    const bool imm_ok = carries_sequence(wc, expected_seq);
    return (imm_ok ? 0 : 1) + (s.payload_length(wc) != s.spec().size ? 1 : 0) +
           check_received(s, wc.wr_id);
  }
};

}  // namespace rdmabench
