// RDMA read. The reader reads its peer's buffer; the peer stays passive. bw: a window of
// outstanding reads (the QP caps reads in flight at the negotiated rd_atomic). lat: one read
// at a time; reported as the full round trip (a read is a request and its response).
#include <algorithm>

#pragma once

#include "datapath/pattern.h"
#include "datapath/transfer_loops.h"

namespace rdmabench {

class ReadPattern final : public TransportPattern {
 public:
  static constexpr PatternInfo kInfo{
      .name = "read",
      .summary = "RDMA READ of the peer's buffer; lat is the full round trip (ib_read_bw/lat)",
      .opcode = IBV_WR_RDMA_READ,
      .target_receives = false,
      .receive_holds_data = false,
      .immediate = Immediate::kNone,
      .half_round_trip = false,
      .arrival = Arrival::kCompletion,
      .remote_access = IBV_ACCESS_REMOTE_READ,
      .sizes = {},
      .needs = {.reliable = true, .connected = true}};

  ClientMeasurement run_client(QpStream& s, const RunLength& length, std::span<uint64_t> samples,
                               std::chrono::milliseconds timeout) override {
    return with_poller(s, timeout, [&](auto& poller) {
      SendRequest req(s, IBV_WR_RDMA_READ);
      ClientMeasurement m;
      const bool verify = s.checking();
      time_round_trips(s.sample_clock(), s.spec(), length, samples, m, [&](uint64_t i) {
        if (verify) std::fill_n(s.target(0), s.spec().size, uint8_t{0});
        req.post(s, i + 1, true);
        await_completion(s, poller, i + 1);
        if (verify) m.verify.add(check_slot(s, 0), s.index(), i + 1);
      });
      return m;
    });
  }

  // Testing only (--debug-corrupt, in check runs): damage what the client will read, before
  // it starts reading.
  void before_server_run(QpStream& s) override {
    if (s.corrupt_from() != QpStream::kNever) s.target(0)[0] ^= 0xff;
  }
  ServerCount run_server(QpStream&, const RunLength&, std::chrono::milliseconds) override {
    return {};  // passive target
  }

  // A checking bw run's read: the slot it landed in (transfer_loops.h read_slot).
  uint64_t check_bw_completion(QpStream& s, const ibv_wc& wc) override {
    return check_bytes(s, read_slot(s, wc.wr_id & kInStreamMask), s.spec().size);
  }
};

}  // namespace rdmabench
