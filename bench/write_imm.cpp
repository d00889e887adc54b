// RDMA write with immediate. The data lands by RDMA in the peer's buffer and the immediate
// (a message sequence number) is consumed by a receive posted there, so the target sees a
// completion per message. bw: the client streams, the server consumes and re-posts receives.
// lat: ping-pong of write-with-immediate both ways; reported as half the round trip.
#include "engine/pattern.h"
#include "engine/transfer_loops.h"

namespace rdmabench {
namespace {

class WriteImmPattern final : public TransportPattern {
 public:
  ClientMeasurement run_client(Endpoint& ep, uint64_t n, std::span<uint64_t> samples,
                               std::chrono::milliseconds timeout) override {
    return with_poller(ep, timeout, [&](auto& poller) {
      SendRequest req(ep, IBV_WR_RDMA_WRITE_WITH_IMM);
      if (ep.spec().mode == Mode::kBandwidth)
        return ClientMeasurement{stream_requests(ep, poller, req, n, [](const ibv_wc&) {}), 0};
      ClientMeasurement m;
      time_round_trips(ep.spec(), n, samples, m, [&](uint64_t i) {
        const uint64_t seq = ep.sequence++;
        req.wr.imm_data = htonl(static_cast<uint32_t>(seq));
        req.post(ep, i + 1, signal_this(ep.spec(), seq));
        drain_receives(ep, poller, 1, [&](const ibv_wc& wc) {
          if (ep.checking) m.verify_errors += check(ep, wc, seq);
        });
      });
      return m;
    });
  }

  uint64_t run_server(Endpoint& ep, uint64_t n, std::chrono::milliseconds timeout) override {
    return with_poller(ep, timeout, [&](auto& poller) {
      uint64_t errors = 0;
      if (ep.spec().mode == Mode::kBandwidth) {
        uint64_t expected = ep.sequence;
        drain_receives(ep, poller, n, [&](const ibv_wc& wc) {
          if (ep.checking) errors += check(ep, wc, expected);
          ++expected;
        });
        ep.sequence += n;
        return errors;
      }
      SendRequest reply(ep, IBV_WR_RDMA_WRITE_WITH_IMM);
      for (uint64_t i = 0; i < n; ++i) {
        const uint64_t seq = ep.sequence++;
        drain_receives(ep, poller, 1, [&](const ibv_wc& wc) {
          if (ep.checking) errors += check(ep, wc, seq);
        });
        reply.wr.imm_data = htonl(static_cast<uint32_t>(seq));
        reply.post(ep, i + 1, signal_this(ep.spec(), seq));
      }
      return errors;
    });
  }

 private:
  // An out-of-order or wrong immediate counts as one error, plus any corrupt data bytes.
  static uint64_t check(Endpoint& ep, const ibv_wc& wc, uint64_t expected_seq) {
    const bool imm_ok = (wc.wc_flags & IBV_WC_WITH_IMM) != 0 &&
                        ntohl(wc.imm_data) == static_cast<uint32_t>(expected_seq);
    return (imm_ok ? 0 : 1) + check_slot(ep, 0);
  }
};

}  // namespace

std::unique_ptr<TransportPattern> make_write_imm_pattern() {
  return std::make_unique<WriteImmPattern>();
}

}  // namespace rdmabench
