// The bandwidth lane's accounting without a device: run_bw_lane drives fake streams, whose
// fake QPs complete every signalled send on a fake CQ at once, and a fake peer whose receives
// wait on the CQ before the run starts. The tests check what the lane decides: which sends it
// posts and signals, how many stay outstanding, what each stream counts, where its sequence goes
// on from, and how a timed window closes. Every test runs over both posting paths: the classic
// ibv_post_send and the extended API (a fake ibv_qp_ex that rebuilds each request it is told).
#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <stdexcept>
#include <vector>

#include "datapath/bw_lane.h"
#include "datapath/live_counts.h"
#include "fake_extended_qp.h"
#include "spec_fixture.h"
#include "verbs/extended_post.h"

namespace rdmabench {
namespace {

class FakeQp;

// One CQ: completions wait here in order until a poller takes them.
struct FakeCq {
  struct Entry {
    ibv_wc wc;
    FakeQp* from;  // the QP of a send completion, told when it is taken
  };
  std::deque<Entry> pending;
};

// Records what the lane posts: counts, signalling, the outstanding high-water mark, the
// immediates, and the end marker. A signalled send completes on the CQ at once.
class FakeQp {
 public:
  FakeQp(FakeCq& cq, const TestSpec& spec, size_t position)
      : position(position),
        cq_(cq),
        tx_depth_(spec.tx_depth),
        extended_(spec.post_api == PostApi::kExtended),
        datagram_(!spec.transport->connected) {
    extended_qp_.on_request = [this] { readied_when_said.push_back(*readied); };
  }
  uint32_t max_inline_data() const { return granted_inline; }
  uint32_t number() const { return static_cast<uint32_t>(100 + position); }

  // One post of the chain of requests linked by `next`: as ibv_post_send takes it, or through
  // the extended API (each request as the fake ibv_qp_ex rebuilt it from the calls).
  void post_send(ibv_send_wr& first) {
    ++post_calls;
    uint64_t length = 0;
    if (extended_) {
      const size_t before = extended_qp_.posted.size();
      if (post_extended(extended_qp_.native(), first, datagram_) != 0)
        throw std::logic_error("the extended post refused a request");
      for (size_t i = before; i < extended_qp_.posted.size(); ++i, ++length)
        post_one(extended_qp_.posted[i]);
    } else {
      for (ibv_send_wr* wr = &first; wr != nullptr; wr = wr->next, ++length) post_one(*wr);
    }
    longest_chain = std::max(longest_chain, length);
  }
  // As QueuePair::post_sends: one pass through the extended API, one chain a post otherwise.
  template <typename Request>
  void post_sends(uint64_t posts, uint32_t count, const ibv_send_wr& shape, Request&& request) {
    if (!extended_) {
      for (uint64_t p = 0; p < posts; ++p) post_send(link_chain(count, request));
      return;
    }
    const size_t before = extended_qp_.posted.size();
    const int completes = extended_qp_.completes;
    if (post_extended_each(extended_qp_.native(), posts, count, shape, datagram_, request) != 0)
      throw std::logic_error("the extended post refused a request");
    if (extended_qp_.completes - completes != static_cast<int>(posts) ||
        extended_qp_.posted.size() - before != posts * count)
      throw std::logic_error("the extended posts were not `posts` posts of `count` requests");
    post_calls += posts;
    for (size_t i = before; i < extended_qp_.posted.size(); ++i) {
      // A device reads a request's data as its flags say: inline flagged, inline given.
      const bool flagged = (extended_qp_.posted[i].send_flags & IBV_SEND_INLINE) != 0;
      if (flagged != extended_qp_.posted_inline[i])
        throw std::logic_error("a request's inline flag and how its data was given differ");
      if (flagged) ++inlined;
      post_one(extended_qp_.posted[i]);
    }
    longest_chain = std::max(longest_chain, uint64_t{count});
  }
  void post_one(ibv_send_wr& wr) {
    const uint64_t seq = wr.wr_id & kInStreamMask;
    if (seq == kCheckedCountRead) return read_checked_count(wr);
    if (seq != last_posted + 1) throw std::logic_error("sends posted out of order");
    if (ring_slots > 0 && wr.opcode == IBV_WR_RDMA_WRITE) take_ring_write(wr, seq);
    last_posted = seq;
    max_outstanding = std::max(max_outstanding, seq - reaped_up_to);
    if (seq - reaped_up_to > tx_depth_) throw std::logic_error("more than tx_depth outstanding");
    ++posts;
    post_times.push_back(now_ns());
    if (is_marker(wr)) ++markers;
    if (wr.opcode == IBV_WR_RDMA_WRITE_WITH_IMM) take_immediate(ntohl(wr.imm_data));
    if (is_atomic(wr.opcode))
      atomics.push_back({wr.wr.atomic.compare_add, wr.wr.atomic.swap, wr.sg_list->addr});
    if (wr.opcode == IBV_WR_RDMA_READ) reads_land_at.push_back(wr.sg_list->addr);
    if ((wr.send_flags & IBV_SEND_SIGNALED) == 0) return;
    ++signalled;
    last_signalled = seq;
    ibv_wc wc{};
    wc.wr_id = wr.wr_id;
    wc.status = IBV_WC_SUCCESS;
    wc.opcode = IBV_WC_RDMA_WRITE;
    cq_.pending.push_back({wc, this});
  }
  // A send completion taken from the CQ: how many sends it completes.
  uint64_t taken(uint64_t wr_id) {
    const uint64_t before = reaped_up_to;
    reaped_up_to = wr_id & kInStreamMask;
    return reaped_up_to - before;
  }

  size_t position;  // in its lane
  uint64_t posts = 0, signalled = 0, markers = 0, last_posted = 0, last_signalled = 0;
  uint64_t post_calls = 0, longest_chain = 0, inlined = 0;
  uint32_t granted_inline = 0;  // what the QP grants inline (max_inline_data)
  uint64_t max_outstanding = 0;
  // Extended API: the stream's count of readied sends as each request was said to the QP.
  const uint64_t* readied = nullptr;
  std::vector<uint64_t> readied_when_said;
  std::vector<uint64_t> post_times;  // now_ns() at each request posted, in order
  // Each atomic's operands and where its old value lands, in posting order.
  struct Atomic {
    uint64_t compare_add, swap, lands_at;
  };
  std::vector<Atomic> atomics;
  std::vector<uint64_t> reads_land_at;  // where each read's data lands, in posting order
  // --validate's write bw: the target's ring (0: none), how far behind the writes posted its
  // checks stay (what a read of its count returns), the most a read returned, the reads, and
  // where each write went.
  uint64_t ring_slots = 0, target_lag = 0, count_said = 0, count_reads = 0;
  uint64_t count_read_from = 0;    // the remote address the reads named
  bool target_overstates = false;  // the target says it checked more than was written
  // The target catches up: a read that finds no write posted since the one before it finds
  // its checks one write nearer (else they stay target_lag behind for good).
  bool target_catches_up = false;
  uint64_t count_reads_after_writes = 0;  // reads posted after the last write
  std::vector<uint64_t> ring_writes_to;
  // The immediates of the messages: how many, the first and the last; numbered_in_order
  // stays true while each is the one before plus one.
  uint64_t immediates = 0;
  uint32_t first_immediate = 0, last_immediate = 0;
  bool numbered_in_order = true;

 private:
  void take_immediate(uint32_t imm) {
    if (immediates++ == 0)
      first_immediate = imm;
    else if (imm != last_immediate + 1)
      numbered_in_order = false;
    last_immediate = imm;
  }
  // A read of the target's checked count: it lands at once, and completes signalled.
  void read_checked_count(ibv_send_wr& wr) {
    ++count_reads;
    count_read_from = wr.wr.rdma.remote_addr;
    if (posted_at_last_read == last_posted) {
      ++count_reads_after_writes;
      if (target_catches_up && target_lag > 0) --target_lag;
    }
    posted_at_last_read = last_posted;
    const uint64_t count = target_overstates          ? last_posted + 1000
                           : last_posted > target_lag ? last_posted - target_lag
                                                      : 0;
    count_said = std::max(count_said, count);
    std::memcpy(reinterpret_cast<void*>(wr.sg_list->addr), &count, sizeof count);
    ibv_wc wc{};
    wc.wr_id = wr.wr_id;
    wc.status = IBV_WC_SUCCESS;
    wc.opcode = IBV_WC_RDMA_READ;
    cq_.pending.push_back({wc, nullptr});
  }
  // A write into the ring: never into a slot whose message the target has not said it checked.
  void take_ring_write(const ibv_send_wr& wr, uint64_t seq) {
    if (seq > count_said + ring_slots)
      throw std::logic_error("a write into a slot the target had not checked");
    ring_writes_to.push_back(wr.wr.rdma.remote_addr);
  }
  // The end marker: a zero-byte plain send (no immediate: siw's provider refuses one).
  static bool is_marker(const ibv_send_wr& wr) {
    return wr.opcode == IBV_WR_SEND && wr.num_sge == 0;
  }
  FakeCq& cq_;
  uint32_t tx_depth_;
  uint64_t reaped_up_to = 0;
  uint64_t posted_at_last_read = UINT64_MAX;
  bool extended_, datagram_;
  testing::FakeExtendedQp extended_qp_;
};

struct FakeBuffer {
  uint32_t lkey() const { return 7; }
};

// What run_bw_lane and the send request use of a QpStream.
class FakeStream {
 public:
  FakeStream(const TestSpec& spec, uint32_t index, FakeCq& cq, size_t position)
      : spec_(spec),
        index_(index),
        qp_(cq, spec, position),
        bytes_((2 + spec.tx_depth) * spec.size) {
    qp_.readied = &posted;
  }
  const TestSpec& spec() const { return spec_; }
  uint32_t index() const { return index_; }
  uint8_t* source() { return bytes_.data(); }
  uint32_t payload_length(const ibv_wc& wc) const { return wc.byte_len; }
  DatagramDestination datagram_destination() const { return {}; }
  // Slot 0 and as many more as an atomic pattern's QpStream has.
  uint8_t* target(uint64_t i) {
    return bytes_.data() + (1 + (i & kInStreamMask) % (1 + spec_.tx_depth)) * spec_.size;
  }
  FakeBuffer& buffer() { return buffer_; }
  FakeQp& qp() { return qp_; }
  const FakeQp& qp() const { return qp_; }
  uint64_t send_id(uint64_t seq) const { return (uint64_t{index_} << kStreamShift) | seq; }
  void post_receive(uint64_t wr_id) {
    // A shared receive queue's receives belong to no stream.
    if (!spec_.srq && stream_of(wr_id) != index_)
      throw std::logic_error("a receive re-posted on another QP");
    ++reposted;
  }

  const RemoteBuffer& remote() const { return remote_buffer; }
  bool checking() const { return check_run; }
  uint64_t corrupt_from() const { return corrupt_at; }
  uint64_t* checked_count_word() { return &count_landing; }

  RemoteBuffer remote_buffer{0x1000, 9, 1 << 20};
  uint64_t sequence = 0;
  bool check_run = false;
  uint64_t posted = 0;
  uint64_t corrupt_at = UINT64_MAX;
  uint64_t reposted = 0;
  uint64_t count_landing = 0;

 private:
  const TestSpec& spec_;
  uint32_t index_;
  FakeBuffer buffer_;
  FakeQp qp_;
  std::vector<uint8_t> bytes_;
};

// What a timed window may have counted, judged from outside the lane. The lane stamps each
// batch of completions between the poll that returned it and its next poll; its window starts
// a margin after a moment between the run's call and its first poll. A batch surely inside the
// window adds its sends to both bounds, one that may be inside to the upper bound only.
class WindowWitness {
 public:
  WindowWitness(uint64_t called_at, const RunLength& length, size_t streams)
      : lower(streams, 0),
        upper(streams, 0),
        length_(length),
        called_at_(called_at),
        batch_(streams, 0) {}
  void poll_starts(uint64_t now) {
    if (first_poll_ == 0) first_poll_ = now;
    close_batch(now);
  }
  void taken(size_t stream, uint64_t sends) { batch_[stream] += sends; }
  void batch_ends(uint64_t now) { batch_end_ = now; }
  void run_ends(uint64_t now) { close_batch(now); }

  std::vector<uint64_t> lower, upper;  // per stream of the lane

 private:
  void close_batch(uint64_t next_poll) {
    const uint64_t earliest_start = called_at_ + length_.margin_ns;
    const uint64_t latest_start = first_poll_ + length_.margin_ns;
    const bool surely =
        batch_end_ >= latest_start && next_poll < earliest_start + length_.duration_ns;
    const bool maybe =
        next_poll >= earliest_start && batch_end_ < latest_start + length_.duration_ns;
    for (size_t i = 0; i < batch_.size(); ++i) {
      if (surely) lower[i] += batch_[i];
      if (maybe) upper[i] += batch_[i];
      batch_[i] = 0;
    }
  }
  RunLength length_;
  uint64_t called_at_, first_poll_ = 0, batch_end_ = 0;
  std::vector<uint64_t> batch_;  // sends completed by the batch not yet judged
};

// Takes up to three completions at a time (fewer than any batch the lane allows).
class FakePoller {
 public:
  explicit FakePoller(FakeCq& cq) : cq_(cq) {}
  int try_poll(CompletionBatch& wc) {
    if (witness != nullptr) witness->poll_starts(now_ns());
    int got = 0;
    for (; got < 3 && !cq_.pending.empty(); ++got) {
      const FakeCq::Entry e = cq_.pending.front();
      cq_.pending.pop_front();
      if (e.from != nullptr) {
        const uint64_t sends = e.from->taken(e.wc.wr_id);
        if (witness != nullptr) witness->taken(e.from->position, sends);
      }
      wc[static_cast<size_t>(got)] = e.wc;
    }
    if (witness != nullptr) witness->batch_ends(now_ns());
    return got;
  }
  int wait(CompletionBatch& wc) {
    const int got = try_poll(wc);
    if (got == 0 && peer_ended) return kPeerEnded;  // as the run's watch would end it
    if (got == 0) throw std::logic_error("the lane waits on a CQ that nothing will complete");
    return got;
  }

  WindowWitness* witness = nullptr;  // set to judge a timed window
  bool peer_ended = false;           // the peer has said it ended its sends

 private:
  FakeCq& cq_;
};

// CLOCK_MONOTONIC, counting its reads in `*reads`.
struct CountingClock {
  uint64_t now_ns() const {
    ++*reads;
    return rdmabench::now_ns();
  }
  uint64_t* reads;
};

// A check run's checks: every message checked is one error, so the sum shows each was seen.
struct CountingChecks {
  uint64_t check_bw_receive(FakeStream&, const ibv_wc&, uint64_t) { return 1; }
  uint64_t check_bw_completion(FakeStream&, const ibv_wc&) { return 1; }
};

// A receive completion on `s` in receive slot `slot` (its wr_id carries the stream, as the
// ids of QpStream's receives do).
ibv_wc peer_message(const FakeStream& s, uint64_t slot) {
  ibv_wc wc{};
  wc.wr_id = s.send_id(slot);
  wc.status = IBV_WC_SUCCESS;
  wc.opcode = IBV_WC_RECV;
  wc.byte_len = static_cast<uint32_t>(s.spec().size);
  wc.qp_num = s.qp().number();
  return wc;
}

// The peer's end of stream on `s`: a zero-byte receive (as this side sends it, without an
// immediate; a peer of before set the end-of-stream immediate, which is taken too).
ibv_wc peer_end_marker(const FakeStream& s, bool with_old_immediate = false) {
  ibv_wc wc = peer_message(s, 1);
  wc.byte_len = 0;
  if (with_old_immediate) {
    wc.wc_flags = IBV_WC_WITH_IMM;
    wc.imm_data = htonl(kEndOfStreamImm);
  }
  return wc;
}

// A lane of fake streams with the given indices, on one CQ or a CQ each.
struct FakeLane {
  FakeLane(const TestSpec& spec, std::vector<uint32_t> indices, bool cq_per_stream)
      : cqs(cq_per_stream ? indices.size() : 1) {
    for (size_t i = 0; i < indices.size(); ++i) {
      const size_t g = cq_per_stream ? i : 0;
      streams.emplace_back(spec, indices[i], cqs[g], i);
      lane.streams.push_back(&streams.back());
      lane.group_of_stream.push_back(static_cast<uint32_t>(g));
    }
    lane.groups.resize(cqs.size(), nullptr);
    for (FakeCq& cq : cqs) pollers.emplace_back(cq);
  }
  // `n` messages from the peer on every stream, then its end marker if `marked`.
  void peer_sends(uint64_t n, bool marked) {
    for (size_t k = 0; k < lane.streams.size(); ++k) {
      const FakeStream& s = *lane.streams[k];
      FakeCq& cq = cqs[lane.group_of_stream[k]];
      for (uint64_t i = 0; i < n; ++i) cq.pending.push_back({peer_message(s, i), nullptr});
      if (marked) cq.pending.push_back({peer_end_marker(s), nullptr});
    }
  }
  LaneResult run(const LanePlan& plan) {
    CountingChecks checks;
    return run_bw_lane(lane, pollers, plan, checks);
  }
  template <typename Clock>
  LaneResult run(const LanePlan& plan, Clock clock) {
    CountingChecks checks;
    return run_bw_lane(lane, pollers, plan, checks, clock);
  }

  std::deque<FakeCq> cqs;
  std::deque<FakeStream> streams;
  std::deque<FakePoller> pollers;
  LaneOf<FakeStream> lane;
};

LanePlan by_iterations(uint64_t n, bool sends, bool receives, bool peer_receives) {
  LanePlan plan;
  plan.length.iterations = n;
  plan.sends = sends;
  plan.receives = receives;
  plan.peer_receives = peer_receives;
  return plan;
}

// Each test of the lane, once per posting path.
class BwLaneTest : public ::testing::TestWithParam<PostApi> {
 protected:
  TestSpec lane_spec(const std::string& pattern, uint32_t tx_depth, uint32_t signal_every) const {
    TestSpec spec = a_spec(pattern, Mode::kBandwidth, 64, 1, 1);
    spec.tx_depth = tx_depth;
    spec.signal_every = signal_every;
    spec.post_api = GetParam();
    return spec;
  }
};

INSTANTIATE_TEST_SUITE_P(PostApis, BwLaneTest,
                         ::testing::Values(PostApi::kClassic, PostApi::kExtended),
                         [](const auto& info) { return to_string(info.param); });

TEST_P(BwLaneTest, SenderCountsEverySendOnceWhateverItSignals) {
  const TestSpec spec = lane_spec("write", 4, 3);
  FakeLane f(spec, {0}, false);
  f.streams[0].sequence = 100;
  const LaneResult r = f.run(by_iterations(11, true, false, false));

  const FakeQp& qp = f.streams[0].qp();
  EXPECT_EQ(qp.posts, 11u);
  EXPECT_EQ(qp.signalled, 4u);  // 3, 6 and 9 by signal_every, and 11, the last
  EXPECT_EQ(qp.last_signalled, 11u);
  EXPECT_LE(qp.max_outstanding, spec.tx_depth);
  EXPECT_EQ(qp.markers, 0u);
  ASSERT_EQ(r.streams.size(), 1u);
  EXPECT_EQ(r.streams[0].counted, 11u);
  EXPECT_EQ(r.streams[0].sent, 11u);
  EXPECT_EQ(r.streams[0].received, 0u);
  EXPECT_LE(r.streams[0].finish_ns, r.window_ns);
  EXPECT_EQ(f.streams[0].sequence, 111u);
  EXPECT_EQ(r.verify.errors, 0u);
}

TEST_P(BwLaneTest, ASenderByIterationsReadsTheClockAsOftenWhateverItsCount) {
  // Untimed, a batch's time matters only to a stream that finishes in it: the clock is read at
  // the start and as each stream finishes, never per batch (where the kernel cannot read
  // CLOCK_MONOTONIC in user space, each read is a system call: perftest reads none a message).
  const TestSpec spec = lane_spec("write", 4, 3);
  auto reads_for = [&](uint64_t messages) {
    FakeLane f(spec, {0, 1}, false);
    uint64_t reads = 0;
    const LaneResult r = f.run(by_iterations(messages, true, false, false), CountingClock{&reads});
    EXPECT_EQ(r.streams[0].sent, messages);
    EXPECT_GT(r.streams[1].finish_ns, 0u);
    return reads;
  };
  EXPECT_EQ(reads_for(1200), reads_for(12));
}

TEST_P(BwLaneTest, TheLiveCountFollowsEveryCompletedSendOfTheLane) {
  // --report-every reads this while the run goes on; after it, it holds every send.
  TestSpec spec = lane_spec("write", 4, 3);
  spec.qps = 2;
  FakeLane f(spec, {0, 1}, false);
  LiveCounts live(1);
  live.slot(0) = 12345;  // what a previous run left, which a run overwrites
  LanePlan plan = by_iterations(11, true, false, false);
  plan.live = &live.slot(0);
  f.run(plan);
  EXPECT_EQ(live.total(), 22u);
  live.reset();
  EXPECT_EQ(live.total(), 0u);
}

TEST_P(BwLaneTest, ALaneOfThreadOneTakesTheCompletionsOfItsOwnStreams) {
  TestSpec spec = lane_spec("write", 8, 2);
  spec.qps = 4;
  spec.threads = 2;
  FakeLane f(spec, {1, 3}, false);  // thread 1 of 2 drives streams 1 and 3
  f.streams[1].sequence = 50;
  LanePlan plan = by_iterations(9, true, false, false);
  plan.threads = 2;
  const LaneResult r = f.run(plan);

  ASSERT_EQ(r.streams.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(f.streams[i].qp().posts, 9u) << i;
    EXPECT_EQ(r.streams[i].counted, 9u) << i;
    EXPECT_EQ(r.streams[i].sent, 9u) << i;
  }
  EXPECT_EQ(f.streams[0].sequence, 9u);
  EXPECT_EQ(f.streams[1].sequence, 59u);
}

TEST_P(BwLaneTest, ACqPerStreamIsHarvestedUntilEveryStreamIsDone) {
  const TestSpec spec = lane_spec("write", 4, 4);
  FakeLane f(spec, {0, 1, 2}, true);
  const LaneResult r = f.run(by_iterations(10, true, false, false));
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(r.streams[i].sent, 10u) << i;
    EXPECT_TRUE(f.cqs[i].pending.empty()) << i;
  }
}

TEST_P(BwLaneTest, AReceiverCountsAndRepostsEveryReceive) {
  const TestSpec spec = lane_spec("send", 16, 4);
  FakeLane f(spec, {0, 1}, false);
  f.peer_sends(7, false);
  const LaneResult r = f.run(by_iterations(7, false, true, false));
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(r.streams[i].received, 7u) << i;
    EXPECT_EQ(r.streams[i].sent, 0u) << i;
    EXPECT_EQ(r.streams[i].counted, 0u) << i;
    EXPECT_EQ(f.streams[i].reposted, 7u) << i;
    EXPECT_EQ(f.streams[i].qp().posts, 0u) << i;
    EXPECT_EQ(f.streams[i].sequence, 7u) << i;
  }
}

TEST_P(BwLaneTest, SharedReceivesGoToTheStreamTheirQpNames) {
  // From a shared receive queue a receive's wr_id is its slot only (no stream): the QP it
  // arrived on says whose it is. Streams 0 and 2 of thread 0 of two, 5 and 3 messages, the
  // receives taken from slots that say nothing of either.
  TestSpec spec = lane_spec("send", 16, 4);
  spec.qps = 4;
  spec.threads = 2;
  spec.srq = true;
  FakeLane f(spec, {0, 2}, false);
  for (size_t k = 0; k < 2; ++k)
    for (uint64_t i = 0; i < (k == 0 ? 5u : 3u); ++i) {
      ibv_wc wc = peer_message(f.streams[k], i);
      wc.wr_id = 7 * i + k;  // a slot of the shared ring
      f.cqs[0].pending.push_back({wc, nullptr});
    }
  LanePlan plan = by_iterations(0, false, true, false);
  plan.threads = 2;
  plan.shared_receives = true;
  plan.length.duration_ns = 0;
  plan.lossy = true;  // ends at the markers, whatever the counts
  f.peer_sends(0, true);
  const LaneResult r = f.run(plan);
  EXPECT_EQ(r.streams[0].received, 5u);
  EXPECT_EQ(r.streams[1].received, 3u);
  // Without the flag the same completions would all be stream 0's (slot ids carry no stream).
}

TEST_P(BwLaneTest, BothDirectionsMoveTheSequenceBySentPlusReceived) {
  const TestSpec spec = lane_spec("send", 8, 2);
  FakeLane f(spec, {0}, false);
  f.streams[0].sequence = 10;
  f.peer_sends(5, false);
  const LaneResult r = f.run(by_iterations(5, true, true, true));
  EXPECT_EQ(r.streams[0].sent, 5u);
  EXPECT_EQ(r.streams[0].received, 5u);
  EXPECT_EQ(f.streams[0].sequence, 20u);
}

TEST_P(BwLaneTest, ACheckRunChecksEverySignalledCompletionAndEveryReceive) {
  const TestSpec spec = lane_spec("send", 8, 2);
  FakeLane f(spec, {0}, false);
  f.streams[0].check_run = true;
  f.peer_sends(6, false);
  const LaneResult r = f.run(by_iterations(6, true, true, true));
  EXPECT_EQ(r.verify.errors, f.streams[0].qp().signalled + 6);
}

// --validate makes timed runs checking runs: a sender whose messages are checked at their
// receiver signals them by its policy, as in a run that checks nothing (a check run used to
// signal every one, which --validate would have charged to the figures).
TEST_P(BwLaneTest, ACheckingSendRunSignalsByPolicyAlone) {
  const TestSpec spec = lane_spec("send", 8, 4);
  FakeLane f(spec, {0}, false);
  f.streams[0].check_run = true;
  f.run(by_iterations(32, true, false, true));
  EXPECT_EQ(f.streams[0].qp().posts, 32u);
  EXPECT_EQ(f.streams[0].qp().signalled, 8u);  // every 4th (the 32nd the last)
}

// A check that fails names its message: the first failing one, by stream and number in the run.
struct FailingChecks {
  uint32_t bad_stream;
  uint64_t bad_index;  // the stream's receive index (from 0) that fails
  uint64_t check_bw_receive(FakeStream& s, const ibv_wc&, uint64_t index) {
    return s.index() == bad_stream && index >= bad_index ? 2 : 0;
  }
  uint64_t check_bw_completion(FakeStream&, const ibv_wc&) { return 0; }
};

TEST_P(BwLaneTest, AFailedCheckNamesTheFirstBadMessageByStreamAndNumber) {
  TestSpec spec = lane_spec("send", 8, 2);
  spec.qps = 4;
  spec.threads = 2;
  FakeLane f(spec, {1, 3}, false);  // thread 1 of 2 drives streams 1 and 3
  for (auto& s : f.streams) s.check_run = true;
  f.peer_sends(6, false);
  FailingChecks checks{3, 3};
  LanePlan plan = by_iterations(6, false, true, false);
  plan.threads = 2;
  const LaneResult r = run_bw_lane(f.lane, f.pollers, plan, checks);
  EXPECT_EQ(r.verify.errors, 6u);  // messages 4, 5 and 6 of stream 3, two bytes each
  ASSERT_TRUE(r.verify.first.has_value());
  EXPECT_EQ(*r.verify.first, (BadMessage{3, 4}));
}

// A receive is checked before it is posted again: with --validate each receive posted has a
// slot of its own, and a message could otherwise land over the one being checked.
struct RepostWitness {
  bool reposted_before_check = false;
  uint64_t check_bw_receive(FakeStream& s, const ibv_wc&, uint64_t index) {
    if (s.reposted != index) reposted_before_check = true;
    return 0;
  }
  uint64_t check_bw_completion(FakeStream&, const ibv_wc&) { return 0; }
};

TEST_P(BwLaneTest, AReceiveIsCheckedBeforeItIsPostedAgain) {
  const TestSpec spec = lane_spec("send", 8, 2);
  FakeLane f(spec, {0}, false);
  f.streams[0].check_run = true;
  f.peer_sends(5, false);
  RepostWitness checks;
  const LaneResult r = run_bw_lane(f.lane, f.pollers, by_iterations(5, false, true, false), checks);
  EXPECT_EQ(r.streams[0].received, 5u);
  EXPECT_EQ(f.streams[0].reposted, 5u);
  EXPECT_FALSE(checks.reposted_before_check);
}

// --validate's reads: each read in flight lands in a slot of its own (read_slot), so that a
// read's check on its completion sees its own bytes; every one is signalled, to be checked.
TEST_P(BwLaneTest, AValidatedReadLandsInItsOwnSlotAndIsSignalled) {
  TestSpec spec = lane_spec("read", 4, 2);
  FakeLane f(spec, {0}, false);
  f.streams[0].check_run = true;
  const LaneResult r = f.run(by_iterations(9, true, false, false));
  const FakeQp& qp = f.streams[0].qp();
  ASSERT_EQ(qp.reads_land_at.size(), 9u);
  for (uint64_t k = 0; k < 9; ++k)
    EXPECT_EQ(qp.reads_land_at[k], reinterpret_cast<uintptr_t>(read_slot(f.streams[0], k + 1)))
        << k;
  EXPECT_NE(qp.reads_land_at[0], qp.reads_land_at[1]);
  EXPECT_EQ(qp.signalled, 9u);
  EXPECT_EQ(r.verify.errors, 9u);  // CountingChecks: each read's completion was checked
}

TEST_P(BwLaneTest, ATimedWindowClosesWithOneEndMarkerThatIsNoMessage) {
  const TestSpec spec = lane_spec("write_imm", 8, 2);
  FakeLane f(spec, {0, 1}, false);
  f.streams[1].sequence = 1000;
  LanePlan plan;
  plan.length = {0, 100'000'000, 10'000'000};  // 100 ms window, 10 ms margins
  plan.sends = true;
  plan.peer_receives = true;
  WindowWitness witness(now_ns(), plan.length, 2);
  f.pollers[0].witness = &witness;
  const LaneResult r = f.run(plan);
  witness.run_ends(now_ns());

  EXPECT_EQ(r.window_ns, plan.length.duration_ns);
  for (size_t i = 0; i < 2; ++i) {
    const FakeQp& qp = f.streams[i].qp();
    EXPECT_EQ(qp.markers, 1u) << i;
    EXPECT_EQ(qp.last_signalled, qp.last_posted) << i;  // the marker, signalled, came last
    EXPECT_EQ(r.streams[i].sent, qp.posts - 1) << i;
    EXPECT_GE(r.streams[i].counted, witness.lower[i]) << i;
    EXPECT_LE(r.streams[i].counted, witness.upper[i]) << i;
    EXPECT_LE(r.streams[i].counted, r.streams[i].sent) << i;
    // The immediates number the messages on from the stream's sequence, and it goes on after.
    const uint32_t first = i == 0 ? 0 : 1000;
    EXPECT_EQ(qp.immediates, r.streams[i].sent) << i;
    EXPECT_TRUE(qp.numbered_in_order) << i;
    EXPECT_EQ(qp.first_immediate, first) << i;
    EXPECT_EQ(qp.last_immediate, first + r.streams[i].sent - 1) << i;
    EXPECT_EQ(f.streams[i].sequence, first + r.streams[i].sent) << i;
  }
}

TEST_P(BwLaneTest, ATimedReceiverStopsAtThePeersMarkerWithoutCountingIt) {
  const TestSpec spec = lane_spec("send", 8, 2);
  FakeLane f(spec, {0}, false);
  f.peer_sends(5, true);
  LanePlan plan;
  plan.length = {0, 1'000'000, 0};
  plan.receives = true;
  const LaneResult r = f.run(plan);
  EXPECT_EQ(r.streams[0].received, 5u);
  EXPECT_EQ(f.streams[0].reposted, 6u);  // the marker's receive goes back too
  EXPECT_EQ(f.streams[0].sequence, 5u);
}

TEST_P(BwLaneTest, ALossySenderClosesEveryStreamByIterationsWithAMarkerThatIsNoMessage) {
  const TestSpec spec = lane_spec("send", 8, 2);
  FakeLane f(spec, {0, 1}, false);
  LanePlan plan = by_iterations(7, true, false, true);
  plan.lossy = true;
  const LaneResult r = f.run(plan);
  for (size_t i = 0; i < 2; ++i) {
    const FakeQp& qp = f.streams[i].qp();
    EXPECT_EQ(qp.posts, 8u) << i;
    EXPECT_EQ(qp.markers, 1u) << i;
    EXPECT_EQ(qp.last_signalled, qp.last_posted) << i;
    EXPECT_EQ(r.streams[i].sent, 7u) << i;
    EXPECT_EQ(r.streams[i].counted, 7u) << i;
    EXPECT_EQ(f.streams[i].sequence, 7u) << i;
  }
}

TEST_P(BwLaneTest, ALossyReceiverCountsWhatArrivedAndEndsAtTheMarker) {
  const TestSpec spec = lane_spec("send", 8, 2);
  FakeLane f(spec, {0}, false);
  f.peer_sends(5, true);  // 7 were due: 2 lost
  LanePlan plan = by_iterations(7, false, true, false);
  plan.lossy = true;
  const LaneResult r = f.run(plan);
  EXPECT_EQ(r.streams[0].received, 5u);
  EXPECT_EQ(f.streams[0].reposted, 6u);
  EXPECT_EQ(f.streams[0].sequence, 5u);
}

TEST_P(BwLaneTest, ALossyReceiverWhoseMarkerWasLostEndsWhenThePeerHasEnded) {
  const TestSpec spec = lane_spec("send", 8, 2);
  FakeLane f(spec, {0, 1}, true);
  f.peer_sends(4, false);                                                // the markers lost
  f.cqs[1].pending.push_back({peer_end_marker(f.streams[1]), nullptr});  // but one
  for (FakePoller& p : f.pollers) p.peer_ended = true;
  LanePlan plan = by_iterations(7, false, true, false);
  plan.lossy = true;
  const uint64_t start = now_ns();
  const LaneResult r = f.run(plan);
  // Stream 0 never saw its marker: the lane waited kLossyDrainQuietNs with nothing arriving.
  EXPECT_GE(now_ns() - start, lane_detail::kLossyDrainQuietNs);
  for (size_t i = 0; i < 2; ++i) EXPECT_EQ(r.streams[i].received, 4u) << i;
}

TEST_P(BwLaneTest, ByIterationsAReliableReceiverStopsAtItsCountWithoutAMarker) {
  const TestSpec spec = lane_spec("send", 8, 2);
  FakeLane f(spec, {0}, false);
  f.peer_sends(7, false);
  const LaneResult r = f.run(by_iterations(7, false, true, false));
  EXPECT_EQ(r.streams[0].received, 7u);
  FakeLane g(spec, {0}, false);
  const LaneResult s = g.run(by_iterations(7, true, false, true));
  EXPECT_EQ(g.streams[0].qp().markers, 0u);  // no marker unless the transport may lose
  EXPECT_EQ(s.streams[0].sent, 7u);
}

TEST_P(BwLaneTest, APostListChainsWholeListsWithSignallingAndCreditsRight) {
  TestSpec spec = lane_spec("write_imm", 32, 8);
  spec.post_list = 8;
  FakeLane f(spec, {0, 1}, false);
  f.streams[1].sequence = 500;
  const LaneResult r = f.run(by_iterations(100, true, false, true));
  for (size_t i = 0; i < 2; ++i) {
    const FakeQp& qp = f.streams[i].qp();
    EXPECT_EQ(qp.posts, 100u) << i;
    EXPECT_EQ(qp.post_calls, 13u) << i;  // 12 chains of 8, then the last 4
    EXPECT_EQ(qp.longest_chain, 8u) << i;
    EXPECT_LE(qp.max_outstanding, 32u) << i;     // the fake throws beyond tx_depth as well
    EXPECT_EQ(qp.signalled, 100u / 8 + 1) << i;  // every 8th, and the last
    EXPECT_EQ(qp.last_signalled, 100u) << i;
    EXPECT_EQ(r.streams[i].sent, 100u) << i;
    EXPECT_TRUE(qp.numbered_in_order) << i;  // each request of a chain has its own immediate
    EXPECT_EQ(qp.first_immediate, i == 0 ? 0u : 500u) << i;
    EXPECT_EQ(f.streams[i].sequence, (i == 0 ? 0u : 500u) + 100) << i;
  }
}

// A bw spec of `pattern` whose sends go through the extended API in lists of 8 (tx_depth 32, a
// completion every 8).
TestSpec extended_post_list_spec(const std::string& pattern) {
  TestSpec spec = a_spec(pattern, Mode::kBandwidth, 64, 1, 1);
  spec.tx_depth = 32;
  spec.signal_every = 8;
  spec.post_list = 8;
  spec.post_api = PostApi::kExtended;
  return spec;
}

// Through the extended API a post list is built in one pass: each request is said to the QP
// (ibv_wr_<operation>) as soon as it is readied, never the whole chain readied and walked again.
TEST(BwLaneExtendedApi, APostListIsSaidToTheQpAsEachRequestIsReadied) {
  const TestSpec spec = extended_post_list_spec("write_imm");
  FakeLane f(spec, {0}, false);
  f.run(by_iterations(20, true, false, true));
  const FakeQp& qp = f.streams[0].qp();
  ASSERT_EQ(qp.readied_when_said.size(), 20u);
  for (uint64_t k = 0; k < 20; ++k) EXPECT_EQ(qp.readied_when_said[k], k + 1) << "request " << k;
  EXPECT_EQ(qp.post_calls, 3u);  // 8, 8, then the last 4
}

// A payload small enough goes inline from the first list on: each request's inline flag and
// the call that gives its data agree (rxe read a flagged request's scatter entry as its data).
TEST(BwLaneExtendedApi, AnInlinePostListGivesItsDataInlineFromItsFirstList) {
  const TestSpec spec = extended_post_list_spec("send");
  FakeLane f(spec, {0}, false);
  f.streams[0].qp().granted_inline = 256;
  const LaneResult r = f.run(by_iterations(20, true, false, true));
  EXPECT_EQ(r.streams[0].sent, 20u);
  EXPECT_EQ(f.streams[0].qp().inlined, 20u);
}

TEST_P(BwLaneTest, AChainThatDoesNotFitWaitsForASignalledCompletion) {
  // tx_depth 16, signal_every 9, chains of 8: after two chains 16 are outstanding and only
  // the 9th is signalled; the lane must wait for it, never post a partial chain, and end.
  TestSpec spec = lane_spec("send", 16, 8);
  spec.signal_every = 9;
  spec.post_list = 8;
  FakeLane f(spec, {0}, false);
  const LaneResult r = f.run(by_iterations(40, true, false, true));
  const FakeQp& qp = f.streams[0].qp();
  EXPECT_EQ(qp.post_calls, 5u);
  EXPECT_EQ(qp.longest_chain, 8u);
  EXPECT_EQ(r.streams[0].sent, 40u);
}

TEST_P(BwLaneTest, ALossyStreamWithAPostListEndsWithItsMarkerAlone) {
  TestSpec spec = lane_spec("send", 32, 8);
  spec.post_list = 8;
  FakeLane f(spec, {0}, false);
  LanePlan plan = by_iterations(20, true, false, true);
  plan.lossy = true;
  const LaneResult r = f.run(plan);
  const FakeQp& qp = f.streams[0].qp();
  EXPECT_EQ(qp.posts, 21u);
  EXPECT_EQ(qp.markers, 1u);
  EXPECT_EQ(qp.post_calls, 4u);  // 8, 8, 4, then the marker
  EXPECT_EQ(r.streams[0].sent, 20u);
}

TEST_P(BwLaneTest, CompareAndSwapsChainFromWhereTheStreamsSequenceStands) {
  // Atomic n compares with the chain's n-th value and swaps in the next, so a run that follows
  // others goes on from the counter they left; each lands its old value in a slot of its own.
  TestSpec spec = lane_spec("compare_swap", 4, 2);
  spec.size = 8;
  FakeLane f(spec, {0}, false);
  f.streams[0].sequence = 100;
  const LaneResult r = f.run(by_iterations(11, true, false, false));

  const auto& atomics = f.streams[0].qp().atomics;
  ASSERT_EQ(atomics.size(), 11u);
  for (uint64_t k = 0; k < atomics.size(); ++k) {
    EXPECT_EQ(atomics[k].compare_add, (100 + k) * kChainStep) << k;
    EXPECT_EQ(atomics[k].swap, (101 + k) * kChainStep) << k;
    EXPECT_EQ(atomics[k].lands_at, reinterpret_cast<uintptr_t>(fetch_slot(f.streams[0], 100 + k)))
        << k;
    EXPECT_NE(atomics[k].lands_at, reinterpret_cast<uintptr_t>(f.streams[0].target(0))) << k;
  }
  EXPECT_EQ(r.streams[0].counted, 11u);
  EXPECT_EQ(f.streams[0].sequence, 111u);
}

TEST_P(BwLaneTest, ACheckRunSignalsEveryFetchAndAddSoEachOldValueIsChecked) {
  TestSpec spec = lane_spec("fetch_add", 4, 3);
  spec.size = 8;
  FakeLane f(spec, {0}, false);
  f.streams[0].check_run = true;
  const LaneResult r = f.run(by_iterations(7, true, false, false));

  const FakeQp& qp = f.streams[0].qp();
  EXPECT_EQ(qp.signalled, 7u);
  EXPECT_EQ(r.verify.errors, 7u);  // CountingChecks: each completion was handed to the check
  for (const auto& a : qp.atomics) EXPECT_EQ(a.compare_add, 1u);
}

TEST_P(BwLaneTest, DebugCorruptGivesOneAtomicAWrongOperand) {
  // --debug-corrupt: the post that corrupt_from names adds 2 (fetch_add) or compares with the
  // wrong value (compare_swap), which the fetched values and the counter read back must show.
  for (const char* pattern : {"fetch_add", "compare_swap"}) {
    TestSpec spec = lane_spec(pattern, 4, 1);
    spec.size = 8;
    FakeLane f(spec, {0}, false);
    f.streams[0].check_run = true;
    f.streams[0].corrupt_at = 3;
    f.run(by_iterations(6, true, false, false));
    const auto& atomics = f.streams[0].qp().atomics;
    ASSERT_EQ(atomics.size(), 6u);
    for (uint64_t k = 0; k < atomics.size(); ++k) {
      const uint64_t right = spec.pattern->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD
                                 ? 1
                                 : atomic_counter_after(spec.pattern->opcode, k);
      EXPECT_EQ(atomics[k].compare_add == right, k != 3) << pattern << " " << k;
    }
  }
}

// bw --rate: message k of a stream is never posted before k periods after the lane started
// (a bound the code decides, whatever the machine's speed), every message is still sent, and a
// lane that fell behind posts what is due at once (here: all of a second stream's backlog).
TEST_P(BwLaneTest, PacedSendsAreNeverPostedBeforeTheirTime) {
  const TestSpec spec = lane_spec("write", 16, 4);
  for (const bool sleep : {false, true}) {
    FakeLane f(spec, {0, 1}, false);
    LanePlan plan = by_iterations(40, true, false, false);
    plan.rate = 20'000;  // a period of 50 us
    plan.sleep_between = sleep;
    const uint64_t called_at = now_ns();
    f.run(plan);
    for (const FakeStream& s : f.streams) {
      ASSERT_EQ(s.qp().posts, 40u);
      for (size_t k = 0; k < s.qp().post_times.size(); ++k)
        EXPECT_GE(s.qp().post_times[k], called_at + k * 50'000) << "message " << k;
    }
  }
}

// The end of a stream is a zero-byte receive, with or without the immediate peers of before
// set on it; a message (at least a byte) and a write with immediate never are.
TEST(EndOfStream, IsAZeroByteReceiveWithOrWithoutTheOldImmediate) {
  ibv_wc wc{};
  wc.opcode = IBV_WC_RECV;
  EXPECT_TRUE(is_end_of_stream(wc, 0));
  EXPECT_FALSE(is_end_of_stream(wc, 1));
  wc.wc_flags = IBV_WC_WITH_IMM;
  wc.imm_data = htonl(kEndOfStreamImm);
  EXPECT_TRUE(is_end_of_stream(wc, 0));
  wc.imm_data = htonl(7);
  EXPECT_FALSE(is_end_of_stream(wc, 0));
  wc.opcode = IBV_WC_RECV_RDMA_WITH_IMM;
  wc.imm_data = htonl(kEndOfStreamImm);
  EXPECT_FALSE(is_end_of_stream(wc, 0));
}

}  // namespace
}  // namespace rdmabench

namespace rdmabench {
namespace {

// `spec` with --validate, over a target's ring of 8 slots (--rx-depth).
TestSpec validated_write_spec(TestSpec spec) {
  spec.validate = true;
  spec.rx_depth = 8;
  return spec;
}

// The target of `f`'s one stream: its ring's 8 slots, its checks `lag` writes behind those
// posted (and one nearer at each read after the writes end, when `catches_up`).
FakeQp& validated_target(FakeLane& f, uint64_t lag, bool catches_up) {
  FakeQp& qp = f.streams[0].qp();
  qp.ring_slots = 8;
  qp.target_lag = lag;
  qp.target_catches_up = catches_up;
  return qp;
}

// `writes` messages, the wait for the target's checks after the last bounded by `timeout_ns`.
LanePlan validated_writes(uint64_t writes, uint64_t timeout_ns) {
  LanePlan plan = by_iterations(writes, true, false, false);
  plan.timeout_ns = timeout_ns;
  return plan;
}

// --validate's write bw: the sender writes message n into slot (n - 1) mod rx_depth of the
// target's ring, never into a slot whose message the target has not said (by the read of its
// count) it checked, and reads the count again whenever less than half the ring is left.
TEST_P(BwLaneTest, AValidatedWriterNeverOverrunsTheTargetsChecks) {
  const TestSpec spec = validated_write_spec(lane_spec("write", 16, 4));
  FakeLane f(spec, {0}, false);
  FakeQp& qp = validated_target(f, 3, true);  // its checks three writes behind those posted
  const LaneResult r = f.run(validated_writes(50, 5'000'000'000));

  ASSERT_EQ(qp.ring_writes_to.size(), 50u);
  const uint64_t first_slot = f.streams[0].remote().address;
  for (uint64_t n = 1; n <= 50; ++n)
    EXPECT_EQ(qp.ring_writes_to[n - 1], first_slot + (n - 1) % 8 * 64) << "message " << n;
  // Its count sits after the target's send slot and its 8 ring slots.
  EXPECT_EQ(qp.count_read_from, first_slot - 64 + uint64_t{9} * 64);
  EXPECT_GE(qp.count_reads, 50u / 8);
  EXPECT_EQ(r.streams[0].sent, 50u);
  EXPECT_EQ(qp.last_posted, 50u);
}

// A write completes at its sender before it lands (iWARP: once TCP has it), so the sender's end
// could overtake its last writes: the lane ends only when the target says it checked them all,
// reading its count again for as long as it lags.
TEST_P(BwLaneTest, AValidatedWriterEndsOnlyOnceTheTargetCheckedEveryWrite) {
  const TestSpec spec = validated_write_spec(lane_spec("write", 16, 4));
  FakeLane f(spec, {0}, false);
  FakeQp& qp = validated_target(f, 3, true);
  const LaneResult r = f.run(validated_writes(50, 5'000'000'000));
  EXPECT_EQ(qp.count_said, 50u);
  EXPECT_GE(qp.count_reads_after_writes, 3u);
  EXPECT_EQ(r.streams[0].sent, 50u);
}

// A target whose checks never reach the writes holds the sender no longer than --timeout from
// its last write, however fast it answers the reads.
TEST_P(BwLaneTest, AValidatedWriterGivesUpOnATargetThatNeverChecksTheLastWrites) {
  const TestSpec spec = validated_write_spec(lane_spec("write", 16, 4));
  FakeLane f(spec, {0}, false);
  FakeQp& qp = validated_target(f, 2, false);  // two behind for good
  const uint64_t t0 = now_ns();
  try {
    f.run(validated_writes(20, 30'000'000));
    FAIL() << "the lane ended with writes the target never checked";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kRuntime);
    const std::string what = e.what();
    EXPECT_NE(what.find("checked 18 of the 20 writes"), std::string::npos) << what;
    EXPECT_NE(what.find("within 30 ms"), std::string::npos) << what;
  }
  EXPECT_GE(now_ns() - t0, 30'000'000u);
  EXPECT_GT(qp.count_reads_after_writes, 1u);
}

TEST_P(BwLaneTest, ATargetThatSaysItCheckedMoreThanWasWrittenIsRefused) {
  TestSpec spec = lane_spec("write", 16, 4);
  spec.validate = true;
  spec.rx_depth = 4;
  FakeLane f(spec, {0}, false);
  f.streams[0].qp().ring_slots = 4;
  f.streams[0].qp().target_overstates = true;
  try {
    f.run(by_iterations(20, true, false, false));
    FAIL() << "the lane took a count above the writes it posted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("the target says it checked"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace rdmabench
