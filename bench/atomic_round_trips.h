// The loops and checks the atomic patterns (bench/fetch_add.h, bench/compare_swap.h) share. bw
// runs in the shared lane (bw_lane.h), which sets each atomic's operands. lat: one atomic at a
// time, reported as the full round trip (a request and the response with the old value). The
// target stays passive. A check run checks every fetched value, and afterwards the sender reads
// the peer's counter back: it must hold what every atomic so far made of it
// (atomic_operands.h).
#pragma once

#include <chrono>
#include <span>
#include <string_view>

#include "datapath/atomic_operands.h"
#include "datapath/pattern.h"
#include "datapath/transfer_loops.h"

namespace rdmabench {

inline ClientMeasurement atomic_round_trips(QpStream& s, ibv_wr_opcode opcode,
                                            const RunLength& length, std::span<uint64_t> samples,
                                            std::chrono::milliseconds timeout) {
  return with_poller(s, timeout, [&](auto& poller) {
    SendRequest req(s, opcode);
    ClientMeasurement m;
    time_round_trips(s.sample_clock(), s.spec(), length, samples, m, [&](uint64_t i) {
      const uint64_t n = s.sequence++;
      set_atomic_operands(s, req.wr(), n, fetch_slot(s, n));
      req.post(s, i + 1, true);
      await_completion(s, poller, i + 1);
      if (s.checking()) m.verify.add(count_wrong_fetch(s, opcode, n), s.index(), i + 1);
    });
    return m;
  });
}

// bw check runs: the atomic a completion reports (every one is signalled then). The stream's
// sequence is where the run began until the run ends.
inline uint64_t check_atomic_completion(QpStream& s, ibv_wr_opcode opcode, const ibv_wc& wc) {
  return count_wrong_fetch(s, opcode, s.sequence + (wc.wr_id & kInStreamMask) - 1);
}

// After a check run: reads the peer's counter back (an RDMA read into slot 0, untimed) and
// returns 1 when it holds anything but what the stream's atomics so far made of it.
inline uint64_t check_peer_counter(QpStream& s, ibv_wr_opcode opcode,
                                   std::chrono::milliseconds timeout) {
  const ibv_sge local{reinterpret_cast<uintptr_t>(s.source()),
                      static_cast<uint32_t>(kAtomicOperandBytes), s.buffer().lkey()};
  SendWorkRequest read =
      SendWorkRequest::rdma(IBV_WR_RDMA_READ, local, {s.remote().address, s.remote().rkey});
  const uint64_t id = s.send_id(kInStreamMask);
  read.native().wr_id = id;
  read.native().send_flags = IBV_SEND_SIGNALED;
  with_poller(s, timeout, [&](auto& poller) {
    s.qp().post_send(read.native());
    await_completion(s, poller, id);
  });
  return holds_value(s.source(), atomic_counter_after(opcode, s.sequence)) ? 0 : 1;
}

// The description every atomic pattern shares: 8-byte operands over a reliable connection, the
// target passive, the old value's return as the arrival (a full round trip), and a counter that
// grants atomics and a read of it back.
constexpr PatternInfo atomic_pattern_info(std::string_view name, std::string_view summary,
                                          ibv_wr_opcode opcode) {
  return {.name = name,
          .summary = summary,
          .opcode = opcode,
          .target_receives = false,
          .receive_holds_data = false,
          .immediate = Immediate::kNone,
          .half_round_trip = false,
          .arrival = Arrival::kCompletion,
          .remote_access = IBV_ACCESS_REMOTE_ATOMIC | IBV_ACCESS_REMOTE_READ,
          .sizes = {kAtomicOperandBytes, kAtomicOperandBytes, "atomics work on 8-byte operands"},
          .needs = {.reliable = true, .connected = true}};
}

// What every atomic pattern does, by its description's opcode: a pattern file derives from
// AtomicPattern<itself> and gives only its kInfo.
template <typename Described>
class AtomicPattern : public TransportPattern {
 public:
  ClientMeasurement run_client(QpStream& s, const RunLength& length, std::span<uint64_t> samples,
                               std::chrono::milliseconds timeout) override {
    return atomic_round_trips(s, Described::kInfo.opcode, length, samples, timeout);
  }
  ServerCount run_server(QpStream&, const RunLength&, std::chrono::milliseconds) override {
    return {};  // passive target
  }
  uint64_t check_bw_completion(QpStream& s, const ibv_wc& wc) override {
    return check_atomic_completion(s, Described::kInfo.opcode, wc);
  }
  uint64_t verify_sent_after_run(QpStream& s, std::chrono::milliseconds timeout) override {
    return check_peer_counter(s, Described::kInfo.opcode, timeout);
  }
};

}  // namespace rdmabench
