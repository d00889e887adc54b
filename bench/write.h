// RDMA write. bw: the client streams writes into the server's buffer; the server stays
// passive (plain writes produce no completion at the target) and checks the data afterwards
// under --verify. lat: perftest-style ping-pong where each side detects arrival by polling the
// last byte of its buffer for a per-message marker; reported as half the round trip.
// With a strategy that blocks (every one but busy), lat waits for each write's own completion
// through the poller before polling memory (arrival itself produces no completion to wait for).
#pragma once

#include "datapath/landed_write_lane.h"
#include "datapath/pattern.h"
#include "datapath/transfer_loops.h"

namespace rdmabench {
namespace write_detail {

// Markers are 1..254; 255 ends a timed window (0 is what a fresh target holds).
inline uint8_t marker_for(uint64_t seq) {
  return static_cast<uint8_t>(seq % 254 + 1);
}
constexpr uint8_t kEndMarker = 255;

// Takes send completions: each frees its send and every earlier one in the send queue.
inline void reap_sends(QpStream& ep, const CompletionBatch& wc, int got) {
  for (int i = 0; i < got; ++i) {
    check_completion(wc[i], ep.spec());
    ep.send_credits.reaped(wc[i].wr_id);
  }
}

// Posts one write (signalled by policy, always in event mode) and reaps its completion
// through the poller in event mode. Never posts while unreaped sends could fill the send
// queue: hardware NICs free a slot only when a completion covering it is polled.
template <typename Poller>
void post_write(QpStream& ep, Poller& poller, SendRequest& req, uint64_t seq) {
  CompletionBatch wc;
  while (ep.send_credits.full()) reap_sends(ep, wc, wait_for_completions(poller, wc));
  // A strategy that may sleep waits for this write's own completion (arrival makes none).
  constexpr bool blocks = Poller::kInfo.blocks;
  req.post(ep, seq + 1, blocks || signal_this(ep.spec(), seq));
  ep.send_credits.posted(seq + 1);
  if constexpr (blocks) reap_sends(ep, wc, wait_for_completions(poller, wc));
}

// Spins until the target's last byte holds `marker` (or the end marker: returns false);
// reaps send completions meanwhile.
template <typename Poller>
bool wait_for_marker(QpStream& ep, Poller& poller, uint8_t marker,
                     std::chrono::milliseconds timeout) {
  const volatile uint8_t* last = ep.target(0) + ep.spec().size - 1;
  CompletionBatch wc;
  uint64_t deadline = 0;
  for (uint32_t spins = 0; *last != marker; ++spins) {
    if (*last == kEndMarker) [[unlikely]]
      return false;
    if ((spins & 0xfff) != 0xfff) continue;
    if (ep.abort_requested()) throw_run_aborted(ep.name());
    reap_sends(ep, wc, poller.try_poll(wc));
    const uint64_t t = now_ns();
    if (deadline == 0) {
      deadline = t + static_cast<uint64_t>(timeout.count()) * 1'000'000;
    } else if (t > deadline) {
      throw_completion_timeout(ep.poll_target(timeout));
    }
  }
  return true;
}

}  // namespace write_detail

class WritePattern final : public TransportPattern {
 public:
  static constexpr PatternInfo kInfo{
      .name = "write",
      .summary = "RDMA WRITE; lat polls the last byte for the peer's marker (ib_write_bw/lat)",
      .opcode = IBV_WR_RDMA_WRITE,
      .target_receives = false,
      .receive_holds_data = false,
      .immediate = Immediate::kNone,
      .half_round_trip = true,
      .arrival = Arrival::kMarker,
      .remote_access = IBV_ACCESS_REMOTE_WRITE,
      .sizes = {1, UINT64_MAX, "write lat needs a byte for its marker"},
      .needs = {.reliable = false, .connected = true}};

  ClientMeasurement run_client(QpStream& ep, const RunLength& length, std::span<uint64_t> samples,
                               std::chrono::milliseconds timeout) override {
    return with_poller(ep, timeout, [&](auto& poller) {
      SendRequest req(ep, IBV_WR_RDMA_WRITE);
      ClientMeasurement m;
      uint8_t* out_marker = ep.source() + ep.spec().size - 1;
      time_round_trips(ep.sample_clock(), ep.spec(), length, samples, m, [&](uint64_t i) {
        const uint64_t seq = ep.sequence++;
        *out_marker = write_detail::marker_for(seq);
        write_detail::post_write(ep, poller, req, seq);
        write_detail::wait_for_marker(ep, poller, write_detail::marker_for(seq), timeout);
        if (ep.checking()) m.verify.add(count_payload_errors(ep), ep.index(), i + 1);
      });
      if (length.timed_window()) {  // the server's echo ends at the end marker
        *out_marker = write_detail::kEndMarker;
        write_detail::post_write(ep, poller, req, ep.sequence++);
      }
      return m;
    });
  }

  ServerCount run_server(QpStream& ep, const RunLength& length,
                         std::chrono::milliseconds timeout) override {
    return with_poller(ep, timeout, [&](auto& poller) {
      SendRequest reply(ep, IBV_WR_RDMA_WRITE);
      uint8_t* out_marker = ep.source() + ep.spec().size - 1;
      ServerCount c;
      const uint64_t n = length.timed_window() ? UINT64_MAX : length.iterations;
      for (; c.round_trips < n; ++c.round_trips) {
        const uint64_t seq = ep.sequence;
        if (!write_detail::wait_for_marker(ep, poller, write_detail::marker_for(seq), timeout))
          break;
        ++ep.sequence;
        if (ep.checking()) c.verify.add(count_payload_errors(ep), ep.index(), c.round_trips + 1);
        *out_marker = write_detail::marker_for(seq);
        write_detail::post_write(ep, poller, reply, seq);
      }
      if (c.round_trips < n) {  // the end marker came: it took a sequence number too
        ++ep.sequence;
        ep.target(0)[ep.spec().size - 1] = 0;
      }
      return c;
    });
  }

  // --validate's write bw: the target's ring, every slot the complement (landed_write_lane.h).
  void before_server_run(QpStream& ep) override {
    if (ep.spec().checks_landed_writes()) landed_write_checker(ep).arm();
  }

  // (--validate's write bw checked every write as it landed: its ring holds complements.)
  uint64_t verify_after_run(QpStream& ep) override {
    return ep.checking() && ep.spec().mode == Mode::kBandwidth && !ep.spec().checks_landed_writes()
               ? check_slot(ep, 0)
               : 0;
  }

 private:
  // The payload before the marker byte.
  static uint64_t count_payload_errors(QpStream& ep) {
    return check_bytes(ep, ep.target(0), ep.spec().size - 1);
  }
};

}  // namespace rdmabench
