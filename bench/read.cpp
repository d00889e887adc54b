// RDMA read. The client reads the server's buffer; the server stays passive. bw: a window of
// outstanding reads (the QP caps reads in flight at the negotiated rd_atomic). lat: one read
// at a time; reported as the full round trip (a read is a request and its response).
#include "engine/pattern.h"
#include "engine/transfer_loops.h"

namespace rdmabench {
namespace {

class ReadPattern final : public TransportPattern {
 public:
  ClientMeasurement run_client(Endpoint& ep, uint64_t n, std::span<uint64_t> samples,
                               std::chrono::milliseconds timeout) override {
    return with_poller(ep, timeout, [&](auto& poller) {
      SendRequest req(ep, IBV_WR_RDMA_READ);
      ClientMeasurement m;
      const bool verify = ep.checking;
      if (ep.spec().mode == Mode::kBandwidth) {
        m.seconds = stream_requests(ep, poller, req, n, [&](const ibv_wc&) {
          if (verify) m.verify_errors += check_slot(ep, 0);
        });
        return m;
      }
      CompletionBatch wc;
      time_round_trips(ep.spec(), n, samples, m, [&](uint64_t i) {
        if (verify) std::fill_n(ep.target(0), ep.spec().size, uint8_t{0});
        req.post(ep, i + 1, true);
        for (bool done = false; !done;) {
          const int got = poller.wait(wc);
          for (int k = 0; k < got; ++k) {
            check_completion(wc[k], ep.spec());
            done = done || wc[k].wr_id == i + 1;
          }
        }
        if (verify) m.verify_errors += check_slot(ep, 0);
      });
      return m;
    });
  }

  // Testing only (--debug-corrupt, in check runs): damage what the client will read, before
  // it starts reading.
  void before_server_run(Endpoint& ep) override {
    if (ep.corrupt_from != Endpoint::kNever) ep.target(0)[0] ^= 0xff;
  }
  uint64_t run_server(Endpoint&, uint64_t, std::chrono::milliseconds) override { return 0; }
};

}  // namespace

std::unique_ptr<TransportPattern> make_read_pattern() {
  return std::make_unique<ReadPattern>();
}

}  // namespace rdmabench
