// The patterns whose messages carry their sequence number as the immediate, both ways
// (write_imm, send_imm): lat's client ping-pong and server echo, and SequencedPattern, what each
// such pattern does but check its receives. `check(s, wc, seq)` counts what a check run finds
// wrong in the receive of message `seq`; it is called in check runs only.
#pragma once

#include <arpa/inet.h>

#include "datapath/pattern.h"
#include "datapath/transfer_loops.h"

namespace rdmabench {

template <typename Check>
ClientMeasurement sequenced_ping_pong(QpStream& s, ibv_wr_opcode opcode, const RunLength& length,
                                      std::span<uint64_t> samples,
                                      std::chrono::milliseconds timeout, Check check) {
  return with_poller(s, timeout, [&](auto& poller) {
    SendRequest req(s, opcode);
    ClientMeasurement m;
    time_round_trips(s.sample_clock(), s.spec(), length, samples, m, [&](uint64_t i) {
      const uint64_t seq = s.sequence++;
      req.wr().imm_data = htonl(static_cast<uint32_t>(seq));
      req.post(s, i + 1, signal_this(s.spec(), seq));
      drain_receives(s, poller, 1, [&](const ibv_wc& wc) {
        if (s.checking()) m.verify.add(check(s, wc, seq), s.index(), i + 1);
      });
    });
    if (length.timed_window()) EndOfStream().post(s, m.all_round_trips + 1);
    return m;
  });
}

template <typename Check>
TransportPattern::ServerCount sequenced_echo(QpStream& s, ibv_wr_opcode opcode,
                                             const RunLength& length,
                                             std::chrono::milliseconds timeout, Check check) {
  return with_poller(s, timeout, [&](auto& poller) {
    TransportPattern::ServerCount c;
    SendRequest reply(s, opcode);
    const uint64_t n = length.timed_window() ? UINT64_MAX : length.iterations;
    for (; c.round_trips < n; ++c.round_trips) {
      const uint64_t seq = s.sequence;
      const bool more = drain_receives(s, poller, 1, [&](const ibv_wc& wc) {
        if (s.checking()) c.verify.add(check(s, wc, seq), s.index(), c.round_trips + 1);
      });
      if (!more) break;  // the client's end of a timed window
      ++s.sequence;
      reply.wr().imm_data = htonl(static_cast<uint32_t>(seq));
      reply.post(s, c.round_trips + 1, signal_this(s.spec(), seq));
    }
    return c;
  });
}

// Did this receive carry the immediate `seq`?
inline bool carries_sequence(const ibv_wc& wc, uint64_t seq) {
  return (wc.wc_flags & IBV_WC_WITH_IMM) != 0 && ntohl(wc.imm_data) == static_cast<uint32_t>(seq);
}

// The sequence a stream's index-th arrival of a bw run must carry: the stream's sequence +
// index. Over a transport that may lose messages, lost ones before it make any later sequence
// right too (never an earlier one: nothing is reordered or repeated), so a later immediate is
// taken as the one expected.
inline uint64_t bw_expected_sequence(const QpStream& s, const ibv_wc& wc, uint64_t index) {
  const uint64_t expected = s.sequence + index;
  if (s.spec().transport->reliable || (wc.wc_flags & IBV_WC_WITH_IMM) == 0) return expected;
  const uint32_t ahead = ntohl(wc.imm_data) - static_cast<uint32_t>(expected);
  return ahead < (1u << 31) ? expected + ahead : expected;
}

// What every sequenced pattern does, by its description's opcode: a pattern file derives from
// SequencedPattern<itself> and gives its kInfo and its receive check,
// `static uint64_t check(QpStream&, const ibv_wc&, uint64_t expected_seq)`.
template <typename Described>
class SequencedPattern : public TransportPattern {
 public:
  ClientMeasurement run_client(QpStream& s, const RunLength& length, std::span<uint64_t> samples,
                               std::chrono::milliseconds timeout) override {
    return sequenced_ping_pong(s, Described::kInfo.opcode, length, samples, timeout,
                               Described::check);
  }
  ServerCount run_server(QpStream& s, const RunLength& length,
                         std::chrono::milliseconds timeout) override {
    return sequenced_echo(s, Described::kInfo.opcode, length, timeout, Described::check);
  }
  // The stream's index-th message of the run carries the stream's sequence + index (or a
  // later one, after losses over a transport that may lose messages).
  uint64_t check_bw_receive(QpStream& s, const ibv_wc& wc, uint64_t index) override {
    return Described::check(s, wc, bw_expected_sequence(s, wc, index));
  }
};

}  // namespace rdmabench
