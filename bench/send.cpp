// send/recv. bw: the client streams SENDs, the server consumes them from a full receive
// queue. lat: ping-pong; the reported latency is half the round trip.
#include "engine/pattern.h"
#include "engine/transfer_loops.h"

namespace rdmabench {
namespace {

class SendPattern final : public TransportPattern {
 public:
  ClientMeasurement run_client(Endpoint& ep, uint64_t n, std::span<uint64_t> samples,
                               std::chrono::milliseconds timeout) override {
    return with_poller(ep, timeout, [&](auto& poller) {
      SendRequest req(ep, IBV_WR_SEND);
      if (ep.spec().mode == Mode::kBandwidth)
        return ClientMeasurement{stream_requests(ep, poller, req, n, [](const ibv_wc&) {}), 0};
      ClientMeasurement m;
      time_round_trips(ep.spec(), n, samples, m, [&](uint64_t i) {
        req.post(ep, i + 1, signal_this(ep.spec(), ep.sequence++));
        drain_receives(ep, poller, 1, [&](const ibv_wc& wc) {
          if (ep.checking) m.verify_errors += check_slot(ep, wc.wr_id);
        });
      });
      return m;
    });
  }

  uint64_t run_server(Endpoint& ep, uint64_t n, std::chrono::milliseconds timeout) override {
    return with_poller(ep, timeout, [&](auto& poller) {
      uint64_t errors = 0;
      auto check = [&](const ibv_wc& wc) {
        if (!ep.checking) return;
        errors += check_slot(ep, wc.wr_id) + (wc.byte_len != ep.spec().size ? 1 : 0);
      };
      if (ep.spec().mode == Mode::kBandwidth) {
        drain_receives(ep, poller, n, check);
        return errors;
      }
      SendRequest reply(ep, IBV_WR_SEND);
      for (uint64_t i = 0; i < n; ++i) {
        drain_receives(ep, poller, 1, check);
        reply.post(ep, i + 1, signal_this(ep.spec(), ep.sequence++));
      }
      return errors;
    });
  }
};

}  // namespace

std::unique_ptr<TransportPattern> make_send_pattern() {
  return std::make_unique<SendPattern>();
}

}  // namespace rdmabench
