// A transport pattern: what each stream (one QP) does in one run. lat: a ping-pong on one
// stream, written by the pattern. bw: the shared lane loop (bw_lane.h) streams the opcode of
// the pattern's description (PatternInfo) on every stream of a thread; the pattern says only
// how a check run checks what arrives. The implementations, and the registry that lists them,
// live in bench/; a pattern knows no threads.
#pragma once

#include <arpa/inet.h>
#include <infiniband/verbs.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "cq/channel_watch.h"
#include "cq/poll_steps.h"
#include "cq/strategy_registry.h"
#include "datapath/client_measurement.h"
#include "datapath/completion_check.h"
#include "datapath/qp_stream.h"
#include "datapath/resource_usage.h"
#include "spec/pattern_info.h"
#include "spec/run_length.h"

namespace rdmabench {

class TransportPattern {
 public:
  virtual ~TransportPattern() = default;
  // lat: runs the ping-pong on one stream. Writes one full round trip (ns) per counted message
  // into `samples` (sized by the caller, so nothing is allocated here).
  virtual ClientMeasurement run_client(QpStream& s, const RunLength& length,
                                       std::span<uint64_t> samples,
                                       std::chrono::milliseconds timeout) = 0;
  // The server, before it tells the client to start a run (nothing is timed yet).
  virtual void before_server_run(QpStream&) {}
  // lat: the server's echo on one stream, until the client's end (all iterations, or its end
  // marker in a timed window). Returns corrupt bytes seen and round trips echoed.
  struct ServerCount {
    VerifyTally verify;  // what a checking run's server found, by round trip
    uint64_t round_trips = 0;
  };
  virtual ServerCount run_server(QpStream& s, const RunLength& length,
                                 std::chrono::milliseconds timeout) = 0;

  // bw check runs only (never timed): a receive of the stream's `index`-th message, and a
  // send completion at the sender (read checks what it read). Return corrupt bytes/messages.
  virtual uint64_t check_bw_receive(QpStream&, const ibv_wc&, uint64_t /*index*/) { return 0; }
  virtual uint64_t check_bw_completion(QpStream&, const ibv_wc&) { return 0; }
  // After a check run: what the target can check only then (written data of write bw).
  virtual uint64_t verify_after_run(QpStream&) { return 0; }
  // After a check run, on each side that sent: what only the sender can check then (atomics:
  // the peer's counter, read back). Untimed; may use the QP.
  virtual uint64_t verify_sent_after_run(QpStream&, std::chrono::milliseconds /*timeout*/) {
    return 0;
  }
};

// Calls fn(poller) with a poller of this stream's strategy.
template <typename Fn>
decltype(auto) with_poller(QpStream& s, std::chrono::milliseconds timeout, Fn&& fn) {
  PollTarget target = s.poll_target(timeout);
  std::optional<ChannelWatch> watch;  // this thread's blocking waits, bounded
  watch_blocking_waits(watch, std::span(&target, 1));
  return with_poller(target, std::forward<Fn>(fn));
}

// The end of a stream in a timed window (and of a lossy one): a zero-byte plain send, which
// the receiver's next receive takes (the sender sends it once the window and margin are over).
// Plain, because every provider carries it (siw's refuses a send with immediate data).
// Messages carry at least a byte, so no message is taken for it; a write with immediate
// completes as IBV_WC_RECV_RDMA_WITH_IMM, never as a receive. Peers of before also set this
// immediate on it, which is still taken.
inline constexpr uint32_t kEndOfStreamImm = 0xffffffffu;
// `payload` is the receive's length past the transport's header room (QpStream::payload_length).
inline bool is_end_of_stream(const ibv_wc& wc, uint32_t payload) {
  return wc.opcode == IBV_WC_RECV && payload == 0 &&
         ((wc.wc_flags & IBV_WC_WITH_IMM) == 0 || ntohl(wc.imm_data) == kEndOfStreamImm);
}

}  // namespace rdmabench
