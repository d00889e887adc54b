// SEND with immediate (perftest's --send_with_imm). The payload lands in a receive posted at
// the target, as with send, and each message also carries its sequence number as the
// immediate, which the receiver checks under --verify. bw: the sender streams, the target
// consumes and re-posts receives. lat: ping-pong both ways; reported as half the round trip.
#pragma once

#include "engine/pattern.h"
#include "engine/transfer_loops.h"

namespace rdmabench {

class SendImmPattern final : public TransportPattern {
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
      .sizes = {}};

  ClientMeasurement run_client(QpStream& s, const RunLength& length, std::span<uint64_t> samples,
                               std::chrono::milliseconds timeout) override {
    return with_poller(s, timeout, [&](auto& poller) {
      SendRequest req(s, kInfo.opcode);
      ClientMeasurement m;
      time_round_trips(s.spec(), length, samples, m, [&](uint64_t i) {
        const uint64_t seq = s.sequence++;
        req.wr.imm_data = htonl(static_cast<uint32_t>(seq));
        req.post(s, i + 1, signal_this(s.spec(), seq));
        drain_receives(s, poller, 1, [&](const ibv_wc& wc) {
          if (s.checking) m.verify_errors += check(s, wc, seq);
        });
      });
      if (length.timed_window()) EndOfStream().post(s, m.all_round_trips + 1);
      return m;
    });
  }

  ServerCount run_server(QpStream& s, const RunLength& length,
                         std::chrono::milliseconds timeout) override {
    return with_poller(s, timeout, [&](auto& poller) {
      ServerCount c;
      SendRequest reply(s, kInfo.opcode);
      const uint64_t n = length.timed_window() ? UINT64_MAX : length.iterations;
      for (; c.round_trips < n; ++c.round_trips) {
        const uint64_t seq = s.sequence;
        const bool more = drain_receives(s, poller, 1, [&](const ibv_wc& wc) {
          if (s.checking) c.errors += check(s, wc, seq);
        });
        if (!more) break;  // the client's end of a timed window
        ++s.sequence;
        reply.wr.imm_data = htonl(static_cast<uint32_t>(seq));
        reply.post(s, c.round_trips + 1, signal_this(s.spec(), seq));
      }
      return c;
    });
  }

  // The stream's index-th message of the run carries the stream's sequence + index.
  uint64_t check_bw_receive(QpStream& s, const ibv_wc& wc, uint64_t index) override {
    return check(s, wc, s.sequence + index);
  }

 private:
  // A wrong or missing immediate, or a wrong length, counts as one error each, plus any
  // corrupt payload bytes in the receive's slot.
  static uint64_t check(QpStream& s, const ibv_wc& wc, uint64_t expected_seq) {
    const bool imm_ok = (wc.wc_flags & IBV_WC_WITH_IMM) != 0 &&
                        ntohl(wc.imm_data) == static_cast<uint32_t>(expected_seq);
    return (imm_ok ? 0 : 1) + (wc.byte_len != s.spec().size ? 1 : 0) + check_slot(s, wc.wr_id);
  }
};

}  // namespace rdmabench
