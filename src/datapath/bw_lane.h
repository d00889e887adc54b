// The bandwidth loop of one thread: it streams the pattern's opcode on every stream of its
// lane, keeping up to tx_depth outstanding on each, and takes completions from the lane's
// CQ(s), handing each to its stream by the stream index in its wr_id. Both sides use it: the
// sender (client; the server too with --bidir) and the receiver of a pattern whose target takes
// receives (send, write_imm, send_imm). Everything
// is prepared before the clock starts; between post and poll nothing allocates, logs, locks
// or makes a virtual call (check runs excepted, which are never timed).
#pragma once

#include <arpa/inet.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/error.h"
#include "datapath/atomic_operands.h"
#include "datapath/chained_sends.h"
#include "datapath/endpoint.h"
#include "datapath/pattern.h"
#include "datapath/resource_usage.h"
#include "datapath/stream_of_completion.h"
#include "datapath/transfer_loops.h"
#include "datapath/verify_tally.h"
#include "datapath/write_credit.h"

namespace rdmabench {

// What this side does on each stream of its lane in one bw run.
struct LanePlan {
  RunLength length;
  bool sends = false;          // streams this side's direction
  bool receives = false;       // consumes the peer's stream (its pattern's target receives)
  bool peer_receives = false;  // the peer consumes ours: a timed window ends with a marker
  uint32_t threads = 1;        // lane t holds streams t, t + threads, ...
  // The transport may lose messages (uc, ud): a sender always closes its stream with the end
  // marker, and a receiver ends at that marker, or (the marker lost) when the peer has ended
  // its sends and nothing more arrives; it counts what arrived, never what was due.
  bool lossy = false;
  // --srq: receives come from a shared receive queue, so only a receive's qp_num says which
  // stream it is for.
  bool shared_receives = false;
  // --report-every: where this lane stores its running count of completed sends (null: none).
  std::atomic<uint64_t>* live = nullptr;
  // bw --rate: each stream's messages per second (0: as fast as the queue allows), and whether
  // the gaps between them are slept (a strategy that blocks) or polled through.
  uint64_t rate = 0;
  bool sleep_between = false;
  // Raised: the run ends early (the paced loop looks between its polls; the waits watch it).
  const std::atomic<bool>* abort = nullptr;
  // --timeout: what bounds, after a sender's last write under --validate's write bw, its wait
  // for the target to say it checked them all.
  uint64_t timeout_ns = 0;
};

// One stream's counts after a run.
struct StreamTally {
  uint64_t counted = 0;    // sends completed: all of them, or those inside the timed window
  uint64_t sent = 0;       // every send completed, margins included (no end marker)
  uint64_t received = 0;   // the peer's messages taken (no end marker): all that arrived
  uint64_t finish_ns = 0;  // by iterations: from the lane's start to this stream's last send
};

struct LaneResult {
  uint64_t window_ns = 0;  // the counted window: first post to last send completion, or the
                           // timed window
  ResourceUsage used;      // this thread's CPU over the whole run
  std::vector<StreamTally> streams;
  VerifyTally verify;  // what a checking run (check_run, --validate) found
  // A sending lane's, in a timed window: when it first read a completion, from the run's start
  // (0: it read none). What says why a window counted nothing.
  uint64_t first_read_ns = 0;
};

namespace lane_detail {

// Does a receiver's stream end at the peer's end marker (rather than after the iterations)? In
// a timed window, and always over a transport that may lose messages.
inline bool ends_at_marker(const LanePlan& plan) {
  return plan.length.timed_window() || plan.lossy;
}

template <typename Stream>
struct StreamState {
  StreamState(Stream& st, ibv_wr_opcode opcode, uint64_t n)
      : s(st),
        sends(st, opcode),
        limit(n),
        first_sequence(st.sequence),
        qp_number(st.qp().number()),
        credit(n > 0 && st.spec().checks_landed_writes()
                   ? WriteCredit(st, CheckedWriteRing::of(st.spec(), st.remote().address),
                                 st.checked_count_word())
                   : WriteCredit()),
        fetch(is_atomic(opcode) ? FetchSlots(st) : FetchSlots()) {}
  Stream& s;
  ChainedSends<Stream> sends;  // --post-list of them per ibv_post_send
  EndOfStream end;
  uint64_t limit;  // sends this run will post (unbounded in a timed window, until it closes)
  uint64_t first_sequence;
  uint32_t qp_number;
  uint64_t posted = 0, done = 0, received = 0, counted = 0, finished_at = 0;
  bool peer_ended = false;
  WriteCredit credit;  // --validate's write bw: the target's ring (else off)
  FetchSlots fetch;    // the atomics' (else empty)
};

// bw --rate: message k of every stream (counted from 0) is due k periods after the lane's
// start, whenever the ones before it were posted, so that a stall is caught up at once and the
// offered load holds (no coordinated omission).
struct Pacing {
  uint64_t period_ns = 0;  // 0: not paced
  uint64_t start_ns = 0;
  // Messages due by `now` on each stream (all of them when not paced).
  uint64_t due(uint64_t now) const {
    return period_ns == 0 ? UINT64_MAX : (now - start_ns) / period_ns + 1;
  }
  uint64_t due_at(uint64_t message) const { return start_ns + message * period_ns; }
};

// What holds for every send of one fill_send_queue: each carries an immediate (with_imm), atomic
// operands (atomic); each is signalled (check: a check run whose check takes each completion);
// each lands in its own read slot (read_slots); each writes the slot --validate's credit says.
struct FillSettings {
  bool with_imm, atomic, check, read_slots, credit;
};

// `chains` chains of `chain` sends on `st`, one post each. Per message only what differs
// between messages is settled (its number, immediate, atomic operands, landing slot, signal);
// what holds for the whole fill was settled once by the caller, how the QP is told once for
// all the chains (QueuePair::post_sends).
template <typename Stream>
[[gnu::always_inline]] inline void post_chains(StreamState<Stream>& st, const TestSpec& spec,
                                               uint32_t chain, uint64_t chains, FillSettings fill) {
  // Signalled: every signal_every-th of the run, its last, and in a checking run all of a
  // pattern whose check takes each send's completion (read, the atomics).
  uint64_t signal_at = (st.posted / spec.signal_every + 1) * spec.signal_every;
  if (fill.atomic) st.fetch.seek(st.first_sequence + st.posted);
  uint64_t readied = st.posted;  // the sends readied so far, in the order they go
  auto ready = [&](StreamSendRequest<Stream> & r) __attribute__((always_inline)) {
    const uint64_t next = ++readied;                    // the message's place in this run
    const uint64_t seq = st.first_sequence + next - 1;  // its number
    if (fill.with_imm) r.wr().imm_data = htonl(static_cast<uint32_t>(seq));
    if (fill.atomic) set_atomic_operands(st.s, r.wr(), seq, st.fetch.next());
    if (fill.read_slots) [[unlikely]]
      r.wr().sg_list->addr = reinterpret_cast<uintptr_t>(read_slot(st.s, next));
    if (fill.credit) [[unlikely]]
      r.wr().wr.rdma.remote_addr = st.credit.slot_address(next);
    const bool every = next == signal_at;
    if (every) signal_at += spec.signal_every;
    r.prepare(st.s, st.s.send_id(next), every || next == st.limit || fill.check);
  };
  st.sends.post(st.s, chains, chain, ready);
  st.posted = readied;
}

// Posts on `st` while the send queue has room and the run has messages left (and, paced, are
// due: at most `due` of them posted), a chain of --post-list at a time (only whole chains, as
// perftest, but for the run's last messages and, paced, those due). The closing message is
// the end marker when closes_with_marker, posted alone.
// A check run signals every send, so that each one's completion can be checked. Validation
// keeps post_list + signal_every <= tx_depth + 1, so that when a chain does not fit, the
// signal_every or more sends outstanding hold a signalled one whose completion makes room.
template <typename Stream>
void fill_send_queue(StreamState<Stream>& st, const TestSpec& spec, bool with_imm, bool atomic,
                     bool marker, uint64_t due = UINT64_MAX) {
  const bool check = st.s.checking() && spec.pattern->arrival == Arrival::kCompletion;
  const FillSettings fill{with_imm, atomic, check,
                          check && spec.pattern->opcode == IBV_WR_RDMA_READ, st.credit.on()};
  while (st.posted < st.limit) {
    const uint64_t room = spec.tx_depth - (st.posted - st.done);
    const uint64_t messages = st.limit - st.posted - (marker ? 1 : 0);
    if (messages == 0) {  // only the end marker is left
      if (room == 0) return;
      st.end.post(st.s, st.s.send_id(++st.posted));
      return;
    }
    if (st.posted >= due) return;     // paced: the next one is not due yet
    uint64_t ring_room = UINT64_MAX;  // --validate's write bw: slots the target has checked
    if (fill.credit) [[unlikely]] {
      if (st.credit.wants_read(st.posted)) st.credit.post_read(st.s);
      ring_room = st.credit.room(st.posted);
      if (ring_room == 0) return;  // a read of the count is in flight
    }
    const uint64_t may = std::min(std::min(messages, due - st.posted), ring_room);
    const uint32_t chain = static_cast<uint32_t>(std::min(uint64_t{st.sends.capacity()}, may));
    if (chain > room) return;
    // Every whole chain that fits now goes without settling the above again (but one at a
    // time under --validate's credit, which may read the target's count between posts).
    post_chains(st, spec, chain, fill.credit ? 1 : std::min(room, may) / chain, fill);
  }
}

// A receive on `st`: reposted, checked in a check run, counted. Returns 1 when it was the
// stream's last (the peer's end marker in a timed window, else the last of the iterations).
template <typename Stream, typename Checks>
[[gnu::always_inline]] inline int take_receive(StreamState<Stream>& st, const ibv_wc& wc,
                                               const LanePlan& plan, Checks& checks,
                                               VerifyTally& verify) {
  const bool end = is_end_of_stream(wc, st.s.payload_length(wc));
  // Checked before its receive is posted again: nothing lands over the message meanwhile.
  if (st.s.checking() && !end) [[unlikely]]
    verify.add(checks.check_bw_receive(st.s, wc, st.received), st.s.index(), st.received + 1);
  st.s.post_receive(wc.wr_id);
  if (end) [[unlikely]] {
    st.peer_ended = true;
    return ends_at_marker(plan) ? 1 : 0;
  }
  return ++st.received == plan.length.iterations && !ends_at_marker(plan) ? 1 : 0;
}

// Does this side close each stream with the end marker? Whenever the peer's stream ends at it.
inline bool closes_with_marker(const LanePlan& plan) {
  return plan.sends && plan.peer_receives && ends_at_marker(plan);
}

// How long a lossy receiver waits, after the peer ended its sends, for a stream whose end
// marker has not come: nothing arrived for this long, so the marker was lost. (The peer's
// end comes by the control channel, and can overtake the marker still on its way.)
inline constexpr uint64_t kLossyDrainQuietNs = 100'000'000;

// Does `st` have messages not yet posted (the end marker aside)?
template <typename Stream>
bool posting_left(const StreamState<Stream>& st, bool marker) {
  return st.posted + (marker ? 1 : 0) < st.limit;
}

// --validate's write bw: the target had not said it checked every write of `st` within the
// timeout after the last one completed.
template <typename Stream>
[[noreturn]] void throw_unchecked_writes(const StreamState<Stream>& st, uint64_t timeout_ns) {
  throw Error(ExitCode::kRuntime,
              "--validate: the target checked " + std::to_string(st.credit.checked()) + " of the " +
                  std::to_string(st.posted) + " writes of QP " + std::to_string(st.s.index()) +
                  ", and no more within " + std::to_string(timeout_ns / 1'000'000) +
                  " ms of the last one's completion (it stalled, or does not check writes as "
                  "this version does: see --timeout)");
}

// One state per stream of the lane, each to post `n` sends (none when this side only receives;
// unbounded in a timed window, until it closes).
template <typename Stream>
std::deque<StreamState<Stream>> streams_of(const LaneOf<Stream>& lane, const LanePlan& plan,
                                           ibv_wr_opcode opcode) {
  const bool timed = plan.length.timed_window();
  const uint64_t marker = closes_with_marker(plan) ? 1 : 0;  // by iterations: one more post
  const uint64_t n = plan.sends ? (timed ? UINT64_MAX : plan.length.iterations + marker) : 0;
  std::deque<StreamState<Stream>> streams;
  for (Stream* s : lane.streams) streams.emplace_back(*s, opcode, n);
  return streams;
}

// A timed window's bounds from the run's start: where counting starts and ends, and when new
// messages stop (the margin after it).
struct WindowBounds {
  uint64_t start, end, stop_at;
};
inline WindowBounds window_of(const RunLength& length, uint64_t run_start) {
  const uint64_t start = run_start + length.margin_ns;
  const uint64_t end = start + length.duration_ns;
  return {start, end, end + length.margin_ns};
}

// After the run: what each stream counted, and where its sequence goes on from.
template <typename Stream>
void tally_streams(std::deque<StreamState<Stream>>& streams, const LanePlan& plan, uint64_t start,
                   LaneResult& result) {
  const bool timed = plan.length.timed_window();
  for (size_t i = 0; i < streams.size(); ++i) {
    StreamState<Stream>& st = streams[i];
    // A stream's closing end marker is no message.
    const uint64_t sent = closes_with_marker(plan) ? st.done - 1 : st.done;
    result.streams[i] = {timed ? st.counted : sent, sent, st.received,
                         timed || st.finished_at == 0 ? 0 : st.finished_at - start};
    st.s.sequence = st.first_sequence + sent + st.received;
  }
}

}  // namespace lane_detail

// One lane's run: its streams' states, its pollers and what the run has counted so far, owned
// together; each step below works on them, and each wait returns what happened. `pollers` holds
// one poller per CQ of the lane (lane.groups order), `checks` the pattern's check-run checks
// (TransportPattern). Device-free tests give a fake stream, poller and checks
// (tests/unit/bw_lane_test.cpp), and a clock that counts its reads.
template <typename Stream, typename Pollers, typename Checks, typename Clock>
class BwLane {
 public:
  BwLane(const LaneOf<Stream>& lane, Pollers& pollers, const LanePlan& plan, Checks& checks,
         Clock clock)
      : clock_(clock),
        lane_(lane),
        pollers_(pollers),
        plan_(plan),
        checks_(checks),
        spec_(lane.streams.front()->spec()),
        timed_(plan.length.timed_window()),
        with_imm_(spec_.pattern->immediate == Immediate::kSequence),
        atomic_(is_atomic(spec_.pattern->opcode)),
        marker_(lane_detail::closes_with_marker(plan)),
        streams_(lane_detail::streams_of(lane, plan, spec_.pattern->opcode)),
        only_(streams_.size() == 1 ? &streams_.front() : nullptr),
        stream_of_(qp_numbers_of(lane.streams), plan.threads, plan.shared_receives) {
    result_.streams.resize(streams_.size());
  }

  LaneResult run();

 private:
  // A lane that posts no sends (plan.sends false): takes its streams' receives and nothing
  // else, with none of the sender's bookkeeping per batch (no clock, no window, no pacing).
  LaneResult run_receiving();
  using State = lane_detail::StreamState<Stream>;
  // What one wait brought: `count` completions in wc_ (0: paced, the next message is due
  // first), or the peer's end of sends over a lossy transport (what was left is drained).
  struct Batch {
    int count = 0;
    bool peer_ended = false;
  };
  // The run's send counts, kept by run() itself (a local the compiler holds in registers
  // across the verbs calls, as members reached through `this` are not).
  struct SendCounts {
    size_t sending = 0;  // streams whose sends are not all done
    uint64_t lane = 0;   // completed on every stream of the lane, for plan.live
    uint64_t done_at = 0;
  };

  [[gnu::always_inline]] inline Batch next_batch();
  Batch poll_until_due();
  [[gnu::always_inline]] inline Batch harvest_or_drain();
  [[gnu::always_inline]] inline int harvest();
  void drain_after_peer_end();
  void await_target_checks(SendCounts& sends);
  // A completed send on `st` in a batch taken at `t` (read here when 0 and the stream is done,
  // as an untimed run reads it only then): counted, and the stream done or not.
  [[gnu::always_inline]] inline void take_send(State& st, const ibv_wc& wc, uint64_t& t,
                                               SendCounts& sends);
  void fill_send_queues(uint64_t due) {
    for (State& st : streams_)
      lane_detail::fill_send_queue(st, spec_, with_imm_, atomic_, marker_, due);
  }
  // A lane of one stream (the usual receiver: one QP a thread) looks nothing up; of a shared
  // receive queue's receive it checks the QP.
  State& stream_for(const ibv_wc& wc) {
    if (only_ != nullptr &&
        (!plan_.shared_receives || !is_receive(wc) || wc.qp_num == only_->qp_number)) [[likely]]
      return *only_;
    return streams_[stream_of_(wc)];
  }

  Clock clock_;
  const LaneOf<Stream>& lane_;
  Pollers& pollers_;
  const LanePlan& plan_;
  Checks& checks_;
  const TestSpec& spec_;
  const bool timed_, with_imm_, atomic_, marker_;
  std::deque<State> streams_;
  State* only_;  // the lane's stream when it has one, else null
  StreamOfCompletion stream_of_;
  LaneResult result_;
  lane_detail::Pacing pacing_;
  lane_detail::WindowBounds window_{};
  CompletionBatch wc_;
  size_t next_group_ = 0;  // the CQ polled first next time, with several
};

// One batch of completions: by a blocking wait when the lane has one CQ, otherwise a poll of
// each in turn and a blocking wait on the CQ of the first stream still waiting.
template <typename Stream, typename Pollers, typename Checks, typename Clock>
int BwLane<Stream, Pollers, Checks, Clock>::harvest() {
  if (pollers_.size() == 1) return pollers_[0].wait(wc_);
  for (size_t k = 0; k < pollers_.size(); ++k) {
    const size_t g = next_group_;
    next_group_ = (next_group_ + 1) % pollers_.size();
    if (const int got = pollers_[g].try_poll(wc_); got > 0) return got;
  }
  for (size_t i = 0; i < streams_.size(); ++i) {
    const State& st = streams_[i];
    const bool receiving = plan_.receives && (lane_detail::ends_at_marker(plan_)
                                                  ? !st.peer_ended
                                                  : st.received < plan_.length.iterations);
    if (st.done < st.limit || receiving) return pollers_[lane_.group_of_stream[i]].wait(wc_);
  }
  return pollers_[0].wait(wc_);
}

// The peer ended its sends over a transport that may lose messages: takes the receives still
// arriving until every stream has its end marker, or until none came for kLossyDrainQuietNs.
template <typename Stream, typename Pollers, typename Checks, typename Clock>
void BwLane<Stream, Pollers, Checks, Clock>::drain_after_peer_end() {
  auto all_ended = [&] {
    for (const State& st : streams_)
      if (!st.peer_ended) return false;
    return true;
  };
  for (uint64_t last = clock_.now_ns();
       !all_ended() && clock_.now_ns() - last < lane_detail::kLossyDrainQuietNs;) {
    for (auto& poller : pollers_) {
      const int got = poller.try_poll(wc_);
      if (got > 0) last = clock_.now_ns();
      for (int i = 0; i < got; ++i) {
        check_completion(wc_[i], spec_);
        if (is_receive(wc_[i]))
          lane_detail::take_receive(stream_for(wc_[i]), wc_[i], plan_, checks_, result_.verify);
      }
    }
  }
}

// One batch (harvest); or, when the wait was ended by the peer's end of sends (a lossy
// transport's receiver, which sends nothing: the CQ's wait returns kPeerEnded), what is left
// drained, and the end.
template <typename Stream, typename Pollers, typename Checks, typename Clock>
auto BwLane<Stream, Pollers, Checks, Clock>::harvest_or_drain() -> Batch {
  const int got = harvest();
  if (got >= 0) [[likely]]
    return {got, false};
  drain_after_peer_end();
  return {0, true};
}

// Paced, while messages are still to be posted: polls every CQ without blocking until a batch
// comes or the next message is due (count 0), sleeping until then when the strategy blocks,
// else polling through. An abort falls through to the blocking harvest, which says why.
template <typename Stream, typename Pollers, typename Checks, typename Clock>
auto BwLane<Stream, Pollers, Checks, Clock>::poll_until_due() -> Batch {
  uint64_t next = UINT64_MAX;
  for (const State& st : streams_)
    if (lane_detail::posting_left(st, marker_)) next = std::min(next, pacing_.due_at(st.posted));
  for (;;) {
    for (auto& poller : pollers_)
      if (const int got = poller.try_poll(wc_); got > 0) return {got, false};
    if (plan_.abort != nullptr && plan_.abort->load(std::memory_order_relaxed)) [[unlikely]]
      return harvest_or_drain();
    if (clock_.now_ns() >= next) return {0, false};
    if (plan_.sleep_between) sleep_until_ns(next);
  }
}

template <typename Stream, typename Pollers, typename Checks, typename Clock>
auto BwLane<Stream, Pollers, Checks, Clock>::next_batch() -> Batch {
  bool paced_posting = false;
  if (pacing_.period_ns != 0)
    for (const State& st : streams_) paced_posting |= lane_detail::posting_left(st, marker_);
  return paced_posting ? poll_until_due() : harvest_or_drain();
}

template <typename Stream, typename Pollers, typename Checks, typename Clock>
void BwLane<Stream, Pollers, Checks, Clock>::take_send(State& st, const ibv_wc& wc, uint64_t& t,
                                                       SendCounts& sends) {
  const uint64_t seq = wc.wr_id & kInStreamMask;
  if (seq == kCheckedCountRead) [[unlikely]]
    return st.credit.take_read(st.posted);  // --validate's write bw: room in the target's ring
  if (st.s.checking()) [[unlikely]]
    result_.verify.add(checks_.check_bw_completion(st.s, wc), st.s.index(), seq);
  if (seq <= st.done) return;
  if (!timed_ || (t >= window_.start && t < window_.end)) st.counted += seq - st.done;
  sends.lane += seq - st.done;
  st.done = seq;
  if (st.done == st.limit) {
    if (t == 0) t = clock_.now_ns();
    st.finished_at = t;
    if (--sends.sending == 0) sends.done_at = t;
  }
}

// --validate's write bw, after the last write completed: a write completes at its sender before
// it lands (on iWARP, once TCP has it), so the sender's end, said by the control channel, could
// overtake its last writes. Reads each stream's checked count again until the target says it
// checked every write, for plan.timeout_ns at most from here, however fast the target answers.
template <typename Stream, typename Pollers, typename Checks, typename Clock>
void BwLane<Stream, Pollers, Checks, Clock>::await_target_checks(SendCounts& sends) {
  const uint64_t deadline = clock_.now_ns() + plan_.timeout_ns;
  for (size_t i = 0; i < streams_.size(); ++i) {
    State& st = streams_[i];
    while (st.credit.checked() < st.posted) {
      if (clock_.now_ns() >= deadline) lane_detail::throw_unchecked_writes(st, plan_.timeout_ns);
      if (!st.credit.reading()) st.credit.post_read(st.s);
      const int got = pollers_[lane_.group_of_stream[i]].wait(wc_);
      uint64_t t = 0;
      for (int k = 0; k < got; ++k) {  // reads of the counts (every send has completed)
        check_completion(wc_[k], spec_);
        take_send(stream_for(wc_[k]), wc_[k], t, sends);
      }
    }
  }
}

template <typename Stream, typename Pollers, typename Checks, typename Clock>
LaneResult BwLane<Stream, Pollers, Checks, Clock>::run_receiving() {
  size_t receiving = plan_.receives ? streams_.size() : 0;
  const ResourceUsage before = ResourceUsage::now();
  const uint64_t start = clock_.now_ns();
  while (receiving > 0) {
    const Batch batch = harvest_or_drain();
    if (batch.peer_ended) break;  // a lossy receiver, after the peer's end
    for (int i = 0; i < batch.count; ++i) {
      check_completion(wc_[i], spec_);
      if (!is_receive(wc_[i])) [[unlikely]]
        throw Error(ExitCode::kInternal, "a send completed on a lane that posts no sends");
      receiving -=
          lane_detail::take_receive(stream_for(wc_[i]), wc_[i], plan_, checks_, result_.verify);
    }
  }
  result_.used = ResourceUsage::now() - before;
  result_.window_ns = timed_ ? plan_.length.duration_ns : 0;
  lane_detail::tally_streams(streams_, plan_, start, result_);
  return std::move(result_);
}

template <typename Stream, typename Pollers, typename Checks, typename Clock>
LaneResult BwLane<Stream, Pollers, Checks, Clock>::run() {
  if (!plan_.sends) return run_receiving();
  SendCounts sends{streams_.size(), 0, 0};
  size_t receiving = plan_.receives ? streams_.size() : 0;
  const ResourceUsage before = ResourceUsage::now();
  const uint64_t start = clock_.now_ns();
  window_ = lane_detail::window_of(plan_.length, start);
  sends.done_at = start;
  bool open = timed_;  // a timed window still taking new messages
  pacing_ = {plan_.rate > 0 ? 1'000'000'000 / plan_.rate : 0, start};
  while (sends.sending > 0 || receiving > 0) {
    fill_send_queues(pacing_.due(pacing_.period_ns != 0 ? clock_.now_ns() : start));
    const Batch batch = next_batch();
    if (batch.peer_ended) break;  // a lossy receiver, after the peer's end
    // When the batch came: read for every batch of a timed window (it closes the window); by
    // iterations, only when a stream finishes in it (take_send), not once a batch.
    uint64_t t = timed_ ? clock_.now_ns() : 0;
    if (timed_ && batch.count > 0 && result_.first_read_ns == 0) result_.first_read_ns = t - start;
    for (int i = 0; i < batch.count; ++i) {
      check_completion(wc_[i], spec_);
      State& st = stream_for(wc_[i]);
      if (is_receive(wc_[i]))
        receiving -= lane_detail::take_receive(st, wc_[i], plan_, checks_, result_.verify);
      else
        take_send(st, wc_[i], t, sends);
    }
    if (plan_.live != nullptr && batch.count > 0)
      plan_.live->store(sends.lane, std::memory_order_relaxed);
    if (open && t >= window_.stop_at) {  // close: one last (signalled) message per stream
      open = false;
      for (State& st : streams_) st.limit = st.posted + 1;
    }
  }
  if (spec_.checks_landed_writes()) [[unlikely]]
    await_target_checks(sends);
  result_.used = ResourceUsage::now() - before;
  result_.window_ns = timed_ ? plan_.length.duration_ns : sends.done_at - start;
  lane_detail::tally_streams(streams_, plan_, start, result_);
  return std::move(result_);
}

// Runs one lane (BwLane) on `clock` (CLOCK_MONOTONIC unless a test gives its own).
template <typename Stream, typename Pollers, typename Checks, typename Clock = MonotonicClock>
LaneResult run_bw_lane(const LaneOf<Stream>& lane, Pollers& pollers, const LanePlan& plan,
                       Checks& checks, Clock clock = {}) {
  return BwLane<Stream, Pollers, Checks, Clock>(lane, pollers, plan, checks, clock).run();
}

}  // namespace rdmabench
