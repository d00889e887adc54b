// send/recv. bw: the sender streams SENDs, the target consumes them from a full receive
// queue. lat: ping-pong; the reported latency is half the round trip.
#pragma once

#include "datapath/pattern.h"
#include "datapath/transfer_loops.h"

namespace rdmabench {

class SendPattern final : public TransportPattern {
 public:
  static constexpr PatternInfo kInfo{
      .name = "send",
      .summary = "SEND into receives posted at the target (ib_send_bw, ib_send_lat)",
      .opcode = IBV_WR_SEND,
      .target_receives = true,
      .receive_holds_data = true,
      .immediate = Immediate::kNone,
      .half_round_trip = true,
      .arrival = Arrival::kReceive,
      .remote_access = 0,
      .sizes = {},
      .needs = {}};

  ClientMeasurement run_client(QpStream& s, const RunLength& length, std::span<uint64_t> samples,
                               std::chrono::milliseconds timeout) override {
    return with_poller(s, timeout, [&](auto& poller) {
      SendRequest req(s, IBV_WR_SEND);
      ClientMeasurement m;
      time_round_trips(s.sample_clock(), s.spec(), length, samples, m, [&](uint64_t i) {
        req.post(s, i + 1, signal_this(s.spec(), s.sequence++));
        drain_receives(s, poller, 1, [&](const ibv_wc& wc) {
          if (s.checking()) m.verify.add(check(s, wc), s.index(), i + 1);
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
      SendRequest reply(s, IBV_WR_SEND);
      const uint64_t n = length.timed_window() ? UINT64_MAX : length.iterations;
      for (; c.round_trips < n; ++c.round_trips) {
        const auto checked = [&](const ibv_wc& wc) {
          c.verify.add(check(s, wc), s.index(), c.round_trips + 1);
        };
        if (!drain_receives(s, poller, 1, checked)) break;  // the client's end of a timed window
        reply.post(s, c.round_trips + 1, signal_this(s.spec(), s.sequence++));
      }
      return c;
    });
  }

  uint64_t check_bw_receive(QpStream& s, const ibv_wc& wc, uint64_t) override {
    return check(s, wc);
  }

 private:
  static uint64_t check(QpStream& s, const ibv_wc& wc) {
    if (!s.checking()) return 0;
    return check_received(s, wc.wr_id) + (s.payload_length(wc) != s.spec().size ? 1 : 0);
  }
};

}  // namespace rdmabench
