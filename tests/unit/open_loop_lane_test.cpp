// Open-loop latency over many connections (issue 68), its lanes without a device: the client's
// (open_loop_client.h) posts each connection's requests on fake streams at their intended
// starts and takes the replies a fake server sends back on one shared fake CQ; the server's
// (open_loop_server.h) answers each request on its own stream and ends at the end markers. The
// tests check what the lanes decide: when each request goes, which connection a completion of
// the shared CQ is for, what each connection counts, and when a lane ends.
#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <stdexcept>
#include <vector>

#include "datapath/open_loop_client.h"
#include "datapath/open_loop_server.h"
#include "spec_fixture.h"

namespace rdmabench {
namespace open_loop_lane_test {

// Moved by the fake CQ: each empty poll takes 10 ns.
struct FakeClock {
  uint64_t t = 0;
  uint64_t now_ns() const { return t; }
};

// The lane's one CQ: completions due at a time, taken once the clock has passed it.
struct SharedCq {
  FakeClock& clock;
  std::multimap<uint64_t, ibv_wc> due;
  int try_poll(std::span<ibv_wc> out) {
    int got = 0;
    while (got < 4 && !due.empty() && due.begin()->first <= clock.t) {
      out[static_cast<size_t>(got++)] = due.begin()->second;
      due.erase(due.begin());
    }
    if (got == 0) clock.t += 10;
    return got;
  }
  int wait(std::span<ibv_wc> out) {
    if (due.empty()) throw std::logic_error("the lane waits on a CQ that nothing will complete");
    clock.t = std::max(clock.t, due.begin()->first);
    return try_poll(out);
  }
  void add(uint64_t at, uint64_t wr_id, ibv_wc_opcode opcode, uint32_t qp, uint32_t length,
           uint32_t imm = 0) {
    ibv_wc wc{};
    wc.wr_id = wr_id;
    wc.status = IBV_WC_SUCCESS;
    wc.opcode = opcode;
    wc.qp_num = qp;
    wc.byte_len = length;
    wc.imm_data = imm;
    wc.wc_flags = opcode == IBV_WC_RECV_RDMA_WITH_IMM ? IBV_WC_WITH_IMM : 0;
    due.emplace(at, wc);
  }
};

struct FakeBuffer {
  uint32_t lkey() const { return 7; }
};

class FakeStream;

// Records each request; the peer answers `reply_after` later on the same stream.
class FakeQp {
 public:
  FakeQp(FakeStream& s) : stream_(s) {}
  uint32_t max_inline_data() const { return 0; }
  uint32_t number() const;
  void post_send(ibv_send_wr& wr);

 private:
  FakeStream& stream_;
};

class FakeStream {
 public:
  FakeStream(const TestSpec& spec, uint32_t index, SharedCq& cq, uint64_t reply_after)
      : reply_after(reply_after), cq(cq), spec_(spec), index_(index), qp_(*this), bytes_(64) {}
  const TestSpec& spec() const { return spec_; }
  uint32_t index() const { return index_; }
  uint8_t* source() { return bytes_.data(); }
  uint8_t* target(uint64_t) { return bytes_.data(); }
  uint32_t payload_length(const ibv_wc& wc) const { return wc.byte_len; }
  DatagramDestination datagram_destination() const { return {}; }
  FakeBuffer& buffer() { return buffer_; }
  FakeQp& qp() { return qp_; }
  const RemoteBuffer& remote() const { return remote_; }
  uint64_t corrupt_from() const { return UINT64_MAX; }
  uint64_t send_id(uint64_t seq) const { return (uint64_t{index_} << kStreamShift) | seq; }
  void post_receive(uint64_t wr_id) {
    if (!spec_.srq && stream_of(wr_id) != index_)
      throw std::logic_error("a receive re-posted on another QP");
    ++reposted;
  }

  uint64_t sequence = 0, posted = 0, reposted = 0;
  uint64_t reply_after;              // the client's: when its replies come (0: never)
  std::vector<uint64_t> request_at;  // when each request went (non-marker)
  std::vector<uint32_t> immediates;  // what each carried
  uint64_t markers = 0, signalled = 0;
  SharedCq& cq;

 private:
  const TestSpec& spec_;
  uint32_t index_;
  FakeBuffer buffer_;
  FakeQp qp_;
  RemoteBuffer remote_{0x1000, 9, 64};
  std::vector<uint8_t> bytes_;
};

uint32_t FakeQp::number() const {
  return 500 + stream_.index();
}

// A request: its time; a reply after `reply_after`, as a receive (send patterns: on a receive
// that carries the stream, or with --srq only the QP) or as its own completion (read).
void FakeQp::post_send(ibv_send_wr& wr) {
  FakeStream& s = stream_;
  if ((wr.send_flags & IBV_SEND_SIGNALED) != 0) ++s.signalled;
  if (wr.num_sge == 0) {
    ++s.markers;
    return;
  }
  s.request_at.push_back(s.cq.clock.t);
  s.immediates.push_back(ntohl(wr.imm_data));
  if (s.reply_after == 0) return;
  const uint64_t at = s.cq.clock.t + s.reply_after;
  if (wr.opcode == IBV_WR_RDMA_READ)
    s.cq.add(at, wr.wr_id, IBV_WC_RDMA_READ, number(), 0);
  else
    s.cq.add(at, s.spec().srq ? 3 : s.send_id(3), IBV_WC_RECV, number(), 8);
}

struct OpenLoopLaneTest : ::testing::Test {
  FakeClock clock;
  SharedCq cq{clock, {}};
  // The specs the streams keep a reference to.
  std::deque<TestSpec> specs;
  std::deque<FakeStream> streams;
  std::vector<FakeStream*> lane;
  OpenLoopPlan plan;
  const std::string name = "send/lat/busy/8/rate:1000000/qps:3";

  TestSpec spec(const char* pattern, uint32_t qps) {
    TestSpec s = a_spec(pattern, Mode::kLatency, 8, qps, 1);
    s.rate = 1'000'000;  // a round trip every 1000 ns per connection
    return s;
  }
  // The lane of thread `t` of the spec's threads: its connection c is stream t + c x threads,
  // its replies after delays[c].
  void connect(const TestSpec& given, std::vector<uint64_t> delays, uint32_t t = 0) {
    const TestSpec& s = specs.emplace_back(given);
    for (uint32_t c = 0; c < delays.size(); ++c)
      streams.emplace_back(s, t + c * s.threads, cq, delays[c]);
    for (FakeStream& st : streams) lane.push_back(&st);
    plan.threads = s.threads;
    plan.benchmark = &name;
    plan.timeout = std::chrono::milliseconds(1);
  }
  ClientMeasurement run(std::vector<uint64_t>& samples) {
    OpenLoopClient<FakeStream, SharedCq, FakeClock> client(lane, cq, plan, clock);
    return client.run(samples);
  }
};

TEST_F(OpenLoopLaneTest, EachConnectionsRequestsGoAtTheirIntendedStarts) {
  const TestSpec s = spec("send", 3);
  connect(s, {100, 200, 300});
  plan.length = {5, 0, 0};            // by iterations: 5 a connection
  std::vector<uint64_t> samples(15);  // 3 connections x 5
  const ClientMeasurement m = run(samples);
  for (uint32_t c = 0; c < 3; ++c) {
    ASSERT_EQ(streams[c].request_at.size(), 5u) << c;
    // Connection c of 3 is shifted by c/3 of the 1000 ns period; the clock moves in 10s.
    for (size_t k = 0; k < 5; ++k) {
      const uint64_t intended = 1000 * k + 1000 * c / 3;
      EXPECT_GE(streams[c].request_at[k], intended) << c << " " << k;
      EXPECT_LT(streams[c].request_at[k], intended + 20) << c << " " << k;
    }
  }
  ASSERT_EQ(m.connections.size(), 3u);
  EXPECT_EQ(m.round_trips, 15u);
  EXPECT_EQ(m.all_round_trips, 15u);
  EXPECT_EQ(m.connection_room, 5u);
  // Each reply is taken by its own connection: connection c's samples are its delay (and at
  // most one poll's step later), from its own share of the samples.
  for (uint32_t c = 0; c < 3; ++c) {
    EXPECT_EQ(m.connections[c].counted, 5u);
    for (size_t k = 0; k < 5; ++k) {
      EXPECT_GE(samples[size_t{c} * 5 + k], 100 * (c + 1)) << c << " " << k;
      EXPECT_LT(samples[size_t{c} * 5 + k], 100 * (c + 1) + 40) << c << " " << k;
    }
    EXPECT_EQ(streams[c].reposted, 5u) << "every reply's receive is posted again";
  }
}

TEST_F(OpenLoopLaneTest, ASlowConnectionCountsFromItsIntendedStartsAndHoldsNoOtherUp) {
  const TestSpec s = spec("send_imm", 2);
  connect(s, {2500, 50});  // connection 0 takes 2.5 periods a round trip
  plan.length = {4, 0, 0};
  std::vector<uint64_t> samples(8);  // 2 connections x 4
  const ClientMeasurement m = run(samples);
  // Connection 0's k-th round trip goes when the one before is back (2500 k), meant at 1000 k.
  for (size_t k = 0; k < 4; ++k) {
    EXPECT_GE(samples[k], 2500 + 1500 * k) << k;
    EXPECT_LT(samples[k], 2500 + 1500 * k + 10 * (k + 1) + 20) << k;
  }
  for (size_t k = 0; k < 4; ++k) EXPECT_LT(samples[4 + k], 50 + 30) << k;
  // Each request carries its connection's own sequence as the immediate.
  for (const FakeStream& st : streams)
    EXPECT_EQ(st.immediates, (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(m.round_trips, 8u);
}

TEST_F(OpenLoopLaneTest, ATimedWindowCountsOnlyItsRoundTripsAndEndsEachStreamWithAMarker) {
  const TestSpec s = spec("send", 2);
  connect(s, {100, 100});
  plan.length = {0, 10'000, 2'000};    // a 10 us window, 2 us margins
  std::vector<uint64_t> samples(128);  // 2 connections x 64
  const ClientMeasurement m = run(samples);
  for (uint32_t c = 0; c < 2; ++c) {
    // Meant at 1000 k (+500 for connection 1) from 0 to 14 us: 14 started, 10 inside.
    EXPECT_EQ(m.connections[c].started, 14u) << c;
    EXPECT_EQ(m.connections[c].counted, 10u) << c;
    EXPECT_EQ(streams[c].markers, 1u) << c;
  }
  EXPECT_EQ(m.all_round_trips, 28u);
  EXPECT_EQ(m.round_trips, 20u);
}

TEST_F(OpenLoopLaneTest, ASharedReceiveQueuesRepliesAreTakenByTheirQp) {
  TestSpec s = spec("send", 3);
  s.srq = true;
  connect(s, {300, 100, 200});
  plan.length = {3, 0, 0};
  std::vector<uint64_t> samples(9);  // 3 connections x 3
  const ClientMeasurement m = run(samples);
  for (uint32_t c = 0; c < 3; ++c) {
    EXPECT_EQ(m.connections[c].counted, 3u);
    EXPECT_GE(samples[size_t{c} * 3], streams[c].reply_after) << c;
    EXPECT_LT(samples[size_t{c} * 3], streams[c].reply_after + 30) << c;
  }
}

TEST_F(OpenLoopLaneTest, TheSecondThreadsLaneHandsEachReplyToItsOwnConnection) {
  TestSpec s = spec("send", 6);
  s.threads = 3;
  connect(s, {400, 100}, 1);  // streams 1 and 4
  plan.length = {3, 0, 0};
  std::vector<uint64_t> samples(6);  // 2 connections x 3
  const ClientMeasurement m = run(samples);
  ASSERT_EQ(m.connections.size(), 2u);
  for (uint32_t c = 0; c < 2; ++c) {
    EXPECT_EQ(m.connections[c].counted, 3u) << c;
    for (size_t k = 0; k < 3; ++k) {
      EXPECT_GE(samples[size_t{c} * 3 + k], streams[c].reply_after) << c << " " << k;
      EXPECT_LT(samples[size_t{c} * 3 + k], streams[c].reply_after + 30) << c << " " << k;
    }
  }
}

TEST_F(OpenLoopLaneTest, AReadsReplyIsItsOwnCompletionAndEverySendIsSignalled) {
  const TestSpec s = spec("read", 2);
  connect(s, {150, 250});
  plan.length = {6, 0, 0};
  std::vector<uint64_t> samples(12);  // 2 connections x 6
  const ClientMeasurement m = run(samples);
  EXPECT_EQ(m.round_trips, 12u);
  for (const FakeStream& st : streams) {
    EXPECT_EQ(st.signalled, 6u);
    EXPECT_EQ(st.markers, 0u) << "a read's target runs nothing to end";
  }
  EXPECT_GE(samples[6], 250u);
}

TEST_F(OpenLoopLaneTest, NoReplyWithinTheTimeoutNamesTheQpWaitedFor) {
  const TestSpec s = spec("send", 2);
  connect(s, {100, 0});  // connection 1's replies never come
  plan.length = {3, 0, 0};
  std::vector<uint64_t> samples(6);  // 2 connections x 3
  try {
    run(samples);
    FAIL() << "the lane waited forever";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kRuntime);
    EXPECT_NE(std::string(e.what()).find("the first: QP 1"), std::string::npos) << e.what();
  }
}

// The server's lane: requests of three connections on its shared CQ, each answered on its own
// stream at once, until each stream's end marker.
TEST_F(OpenLoopLaneTest, TheServerAnswersEachRequestOnItsStreamUntilEveryMarker) {
  TestSpec s = spec("write_imm", 3);
  connect(s, {0, 0, 0});
  const std::vector<uint32_t> requests = {4, 1, 3};
  uint64_t at = 0;
  for (uint32_t c = 0; c < 3; ++c)
    for (uint32_t k = 0; k < requests[c]; ++k)
      cq.add(at += 7, streams[c].send_id(k), IBV_WC_RECV_RDMA_WITH_IMM, 500 + c, 0, htonl(k));
  for (uint32_t c = 0; c < 3; ++c) cq.add(at += 7, streams[c].send_id(9), IBV_WC_RECV, 500 + c, 0);
  OpenLoopEcho<FakeStream, SharedCq> echo(lane, cq, {0, 1'000'000, 0}, 1);
  const std::vector<uint64_t> echoed = echo.run();
  EXPECT_EQ(echoed, (std::vector<uint64_t>{4, 1, 3}));
  for (uint32_t c = 0; c < 3; ++c) {
    EXPECT_EQ(streams[c].request_at.size(), requests[c]) << c;
    EXPECT_EQ(streams[c].reposted, requests[c] + 1) << "the marker's receive too";
  }
  EXPECT_TRUE(cq.due.empty());
}

TEST_F(OpenLoopLaneTest, TheServerByIterationsEndsOnceEveryStreamHasItsCount) {
  TestSpec s = spec("send", 2);
  connect(s, {0, 0});
  for (uint32_t k = 0; k < 2; ++k)
    for (uint32_t c = 0; c < 2; ++c)
      cq.add(uint64_t{10} * (2 * k + c), streams[c].send_id(k), IBV_WC_RECV, 500 + c, 8);
  cq.add(1000, streams[0].send_id(5), IBV_WC_RECV, 500, 8);  // a next run's: left on the CQ
  OpenLoopEcho<FakeStream, SharedCq> echo(lane, cq, {2, 0, 0}, 1);
  EXPECT_EQ(echo.run(), (std::vector<uint64_t>{2, 2}));
  EXPECT_EQ(cq.due.size(), 1u);
}

}  // namespace open_loop_lane_test
}  // namespace rdmabench
