// Hot loops shared by the patterns. Work requests are built before timing starts; between
// post and poll nothing allocates, logs or locks.
#pragma once

#include <arpa/inet.h>
#include <infiniband/verbs.h>

#include <array>
#include <cstdint>
#include <span>

#include <sys/prctl.h>
#include <time.h>

#include <cerrno>

#include "core/clock.h"
#include "core/error.h"
#include "core/sample_clock.h"
#include "cq/strategy.h"
#include "datapath/completion_check.h"
#include "datapath/injected_work.h"
#include "datapath/pattern.h"
#include "datapath/payload.h"
#include "datapath/qp_stream.h"
#include "spec/spec_validation.h"
#include "verbs/work_request.h"

namespace rdmabench {

// The work request of a pattern's opcode on a stream (verbs/work_request.h builds it).
// RDMA ops target the peer's receive/target slot; reads land in our target(0). `Stream` is
// QpStream, or a test's fake with the same members (tests/unit/bw_lane_test.cpp).
// Atomics fetch into a slot of their own, set per post (atomic_operands.h).
template <typename Stream>
SendWorkRequest stream_request(Stream& ep, ibv_wr_opcode opcode) {
  const bool reads = opcode == IBV_WR_RDMA_READ;
  const ibv_sge local{reinterpret_cast<uintptr_t>(reads ? ep.target(0) : ep.source()),
                      static_cast<uint32_t>(ep.spec().size), ep.buffer().lkey()};
  const RemoteMemory remote{ep.remote().address, ep.remote().rkey};
  if (opcode == IBV_WR_SEND || opcode == IBV_WR_SEND_WITH_IMM) {
    const DatagramDestination to = ep.datagram_destination();
    return to.address_handle != nullptr ? SendWorkRequest::datagram(opcode, local, to)
                                        : SendWorkRequest::send(opcode, local);
  }
  if (opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) return SendWorkRequest::fetch_add(local, remote, 1);
  if (opcode == IBV_WR_ATOMIC_CMP_AND_SWP)
    return SendWorkRequest::compare_swap(local, remote, 0, 0);
  return SendWorkRequest::rdma(opcode, local, remote);
}

// Where a checking bw run's read number `n` (its place in the run) lands: with --validate each
// read in flight has a slot of its own (the stream's ring is 1 + tx_depth slots, a slot reused
// only after the completion that covers it was taken and checked); in a --verify check run the
// ring is one slot, target(0), where every read lands.
template <typename Stream>
uint8_t* read_slot(Stream& s, uint64_t n) {
  return s.target(1 + n % s.spec().tx_depth);
}

// Does a request of this opcode carry a payload from the sender's buffer (which it may inline)?
inline bool carries_payload(ibv_wr_opcode opcode) {
  return opcode == IBV_WR_SEND || opcode == IBV_WR_SEND_WITH_IMM || opcode == IBV_WR_RDMA_WRITE ||
         opcode == IBV_WR_RDMA_WRITE_WITH_IMM;
}

// One prepared send-queue work request, posted again and again.
template <typename Stream>
struct StreamSendRequest {
  SendWorkRequest request;
  unsigned base_flags = 0;

  StreamSendRequest(Stream& ep, ibv_wr_opcode opcode) : request(stream_request(ep, opcode)) {
    if (carries_payload(opcode) &&
        ep.spec().size <= inline_threshold(ep.spec(), ep.qp().max_inline_data()))
      base_flags = static_cast<unsigned>(IBV_SEND_INLINE);
    // From the start, the request says how its data goes: a post list's shape is read from it
    // before its first prepare (verbs/extended_post.h).
    request.native().send_flags = base_flags;
  }
  ibv_send_wr& wr() noexcept { return request.native(); }

  // Everything a post does but the post: its id, its flags, and what tests inject.
  void prepare(Stream& ep, uint64_t id, bool signaled) {
    ibv_send_wr& wr = request.native();
    wr.wr_id = id;
    wr.send_flags = base_flags | (signaled ? static_cast<unsigned>(IBV_SEND_SIGNALED) : 0u);
    injected_post_work(request.sge().length);  // nothing, except in the gate's slowdown build
    if (ep.posted++ == ep.corrupt_from()) [[unlikely]]
      ep.source()[0] ^= 0xff;  // testing only: --debug-corrupt, in check runs
  }
  void post(Stream& ep, uint64_t id, bool signaled) {
    prepare(ep, id, signaled);
    ep.qp().post_send(request.native());
  }
};
using SendRequest = StreamSendRequest<QpStream>;

using CompletionBatch = std::array<ibv_wc, kMaxPollBatch>;

inline bool is_receive(const ibv_wc& wc) {
  return (wc.opcode & IBV_WC_RECV) != 0;
}

// One wait in a loop that the peer's end of sending does not end: the server's run watch raises
// it for a lossy bandwidth receiver alone, whose lane takes kPeerEnded (bw_lane.h). Should it
// come here, it is said, never waited on again and again.
template <typename Poller>
int wait_for_completions(Poller& poller, CompletionBatch& wc) {
  const int got = poller.wait(wc);
  if (got < 0) [[unlikely]]
    throw Error(ExitCode::kInternal,
                "a completion wait was ended by the peer's end of sending outside a bandwidth "
                "receiver");
  return got;
}

// Waits for `n` receive completions, re-posting each receive; on_receive(wc) sees each one.
// Send completions that show up on the shared CQ are checked and skipped. Returns false when
// the peer's end-of-stream marker came instead (it ends a timed window).
template <typename Poller, typename OnReceive>
bool drain_receives(QpStream& ep, Poller& poller, uint64_t n, OnReceive&& on_receive) {
  CompletionBatch wc;
  uint64_t received = 0;
  bool ended = false;
  while (received < n && !ended) {
    const int got = wait_for_completions(poller, wc);
    for (int i = 0; i < got; ++i) {
      check_completion(wc[i], ep.spec());
      if (!is_receive(wc[i])) continue;
      ep.post_receive(wc[i].wr_id);
      if (is_end_of_stream(wc[i], ep.payload_length(wc[i]))) [[unlikely]] {
        ended = true;
        continue;
      }
      on_receive(wc[i]);
      ++received;
    }
  }
  return !ended;
}

// Waits for the completion of this side's own request `id` (read, atomics: the response is the
// arrival); the others a shared CQ returns meanwhile are checked and passed over.
template <typename Poller>
void await_completion(QpStream& ep, Poller& poller, uint64_t id) {
  CompletionBatch wc;
  for (bool done = false; !done;) {
    const int got = wait_for_completions(poller, wc);
    for (int k = 0; k < got; ++k) {
      check_completion(wc[k], ep.spec());
      done = done || wc[k].wr_id == id;
    }
  }
}

// A zero-byte send with the end-of-stream immediate, signalled (prepared before a run).
struct EndOfStream {
  ibv_send_wr wr{};
  EndOfStream() {
    wr.opcode = IBV_WR_SEND;  // zero bytes, no immediate (pattern.h: is_end_of_stream)
    wr.send_flags = IBV_SEND_SIGNALED;
  }
  template <typename Stream>
  void post(Stream& s, uint64_t id) {
    wr.wr_id = id;
    const DatagramDestination to = s.datagram_destination();  // none over a connection
    wr.wr.ud.ah = to.address_handle;
    wr.wr.ud.remote_qpn = to.qp_number;
    wr.wr.ud.remote_qkey = to.qkey;
    s.qp().post_send(wr);
  }
};

// Signalling policy for ping-pong sends: every signal_every-th (bounded by half the send
// queue), so the send queue never fills while one message is in flight.
inline bool signal_this(const TestSpec& spec, uint64_t seq) {
  const uint64_t every =
      std::max<uint64_t>(1, std::min<uint64_t>(spec.signal_every, spec.tx_depth / 2));
  return (seq + 1) % every == 0;
}

// Sleeps until CLOCK_MONOTONIC reaches `when_ns` (at once when it has passed).
inline void sleep_until_ns(uint64_t when_ns) {
  const timespec at{static_cast<time_t>(when_ns / 1'000'000'000),
                    static_cast<long>(when_ns % 1'000'000'000)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, nullptr) == EINTR) {
  }
}

// Times ping-pong round trips on `clock`: one_round_trip(i) does the whole exchange for
// message i.
// By iterations: `length.iterations` of them, each counted. With a timed window: for margin +
// duration + margin; those that start and end inside the window are counted. Writes each
// counted round trip (ns) into samples, their sum (s) into m.seconds, the time from the first
// counted start to the last counted end into m.span_seconds. With spec.rate (open loop), round
// trip i is meant to start at i / rate s: the loop waits until then, sleeping with a client
// strategy that blocks and spinning on the clock with one that polls (a sleep's wakeup comes
// late, and its lateness would count in the sample, as it does not in the open-loop lanes of
// many connections), and its sample counts from that intended start, so that a stall also
// delays (and shows in) the messages behind it (no coordinated omission). `clock` is the run's
// SampleClock (a test's clock in tests/unit/round_trip_window_test.cpp: anything with now_ns()).
template <typename Clock, typename OneRoundTrip>
void time_round_trips(const Clock& clock, const TestSpec& spec, const RunLength& length,
                      std::span<uint64_t> samples, ClientMeasurement& m,
                      OneRoundTrip&& one_round_trip) {
  const uint64_t period_ns = spec.rate > 0 ? 1'000'000'000 / spec.rate : 0;
  const bool sleeps = period_ns > 0 && strategy_info(spec.cq.client).blocks;
  // The default 50 us timer slack would add its own lateness to every paced start.
  if (sleeps) prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
  const bool timed = length.timed_window();
  uint64_t total_ns = 0, counted = 0, first_counted = 0, last_end = 0;
  const uint64_t first = clock.now_ns();
  const uint64_t window_start = first + length.margin_ns;
  const uint64_t window_end = window_start + length.duration_ns;
  const uint64_t stop_at = window_end + length.margin_ns;
  uint64_t i = 0;
  for (uint64_t end = first; timed ? end < stop_at : i < length.iterations; ++i) {
    uint64_t t0;
    if (period_ns > 0) {
      t0 = first + i * period_ns;
      // Behind schedule: go at once (a sleep to a passed time still waits for a timer).
      if (sleeps && clock.now_ns() < t0) sleep_until_ns(t0);
      while (!sleeps && clock.now_ns() < t0) {
      }
    } else {
      t0 = clock.now_ns();
    }
    one_round_trip(i);
    end = clock.now_ns();
    if (timed && (t0 < window_start || end > window_end)) continue;
    if (counted == samples.size()) [[unlikely]]
      throw Error(ExitCode::kUsage, "the window holds more than " + std::to_string(samples.size()) +
                                        " round trips, the most kept for percentiles; give a "
                                        "shorter --duration");
    if (counted == 0) first_counted = t0;
    samples[counted++] = end - t0;
    total_ns += end - t0;
    last_end = end;
  }
  m.round_trips = counted;
  m.all_round_trips = i;
  m.seconds = static_cast<double>(total_ns) * 1e-9;
  m.span_seconds = counted > 0 ? static_cast<double>(last_end - first_counted) * 1e-9 : 0;
}

// Corrupt bytes among the first `length` bytes at `bytes`, which must hold the pattern.
inline uint64_t check_bytes(QpStream& ep, const uint8_t* bytes, uint64_t length) {
  return count_corrupt({bytes, length}, ep.expected_payload());
}

// Corrupt bytes in target slot `slot_index` (what a write or read put there): the whole slot
// must match the pattern.
inline uint64_t check_slot(QpStream& ep, uint64_t slot_index) {
  return check_bytes(ep, ep.target(slot_index), ep.spec().size);
}

// Corrupt bytes in the payload of the receive whose wr_id is `id` (in the stream's own slots,
// or the shared receive queue's).
inline uint64_t check_received(QpStream& ep, uint64_t id) {
  return check_bytes(ep, ep.receive_slot(id), ep.spec().size);
}

}  // namespace rdmabench
