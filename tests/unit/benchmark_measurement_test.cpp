// One measurement procedure for `run` and `mesh`, on a fake connection: what it runs, in which
// order, how it sizes its samples, and the check run's counters, which the mesh used to
// count differently (verified_messages without the QPs, no verify_errors).
#include "measure/benchmark_measurement.h"

#include <gtest/gtest.h>

#include "bench/pattern_catalogue.h"
#include "core/error.h"
#include "mesh/pair_measurement.h"
#include "spec/transport.h"
#include "spec_fixture.h"

using namespace rdmabench;

namespace {

// Answers every run with consistent figures: each stream moved what was asked, each lat
// round trip took 2 us; a check run reports `check_errors`.
class FakeRuns : public RunSource {
 public:
  explicit FakeRuns(const TestSpec& spec) : spec_(spec) {}
  RunResult run(const ClientRun& request, std::span<uint64_t> samples) override {
    requests.push_back(request);
    sample_room.push_back(samples.size());
    const uint64_t n = request.length.iterations;
    RunResult r;
    r.client_lat.resize(spec_.threads);
    const size_t per_thread = samples.size() / spec_.threads;
    for (uint32_t t = 0; t < spec_.threads; ++t) {
      auto& lat = r.client_lat[t];
      lat.round_trips = spec_.mode == Mode::kLatency ? n : 0;
      lat.seconds = static_cast<double>(lat.round_trips) * 2e-6;
      lat.span_seconds = lat.seconds;
      for (uint64_t i = 0; i < lat.round_trips; ++i) samples[t * per_thread + i] = 2000;
    }
    for (SideReport* side : {&r.client, &r.server}) {
      side->threads.assign(spec_.threads, SideFigures{1000, 0, 0, 0, 0, 0});
      side->total = SideFigures{1000ull * spec_.threads, 0, 0, 0, 0, 0};
      side->counted.assign(spec_.qps, n);
      side->sent.assign(spec_.qps, n);
      side->received.assign(spec_.qps, n - std::min(n, lost_per_stream));
      side->finish_ns.assign(spec_.qps, 0);
      side->window_ns = n * 1000;
    }
    if (request.check) {
      r.client.verify.errors = check_errors;
      if (check_errors > 0) r.server.verify.first = BadMessage{spec_.qps - 1, 7};
    }
    if (nothing_in_window && request.length.timed_window()) {
      r.client.counted.assign(spec_.qps, 0);
      for (auto& lat : r.client_lat) lat.round_trips = 0;
    }
    return r;
  }
  std::vector<ClientRun> requests;
  std::vector<size_t> sample_room;
  uint64_t check_errors = 0;
  uint64_t lost_per_stream = 0;    // messages of each stream that never arrived (uc)
  bool nothing_in_window = false;  // a timed window's run counts no message of the client's

 private:
  const TestSpec& spec_;
};

TestSpec verified(const char* pattern, Mode mode, uint32_t qps, uint32_t threads) {
  TestSpec s = a_spec(pattern, mode, 64, qps, threads);
  s.verify = true;
  return s;
}

}  // namespace

TEST(BenchmarkMeasurement, WarmUpThenTimedRunThenCheckRun) {
  const TestSpec spec = verified("send", Mode::kBandwidth, 4, 2);
  FakeRuns fake(spec);
  std::vector<uint64_t> samples;
  BenchmarkMeasurement m(fake, spec, {{500, 0, 0, 16}, {0, 1}, false}, samples);
  m.warm_up();
  const RunCounters c = m.timed_run();
  const CheckOutcome checked = m.check();
  ASSERT_EQ(fake.requests.size(), 3u);
  EXPECT_EQ(fake.requests[0].length.iterations, 16u);
  EXPECT_FALSE(fake.requests[0].check);
  EXPECT_EQ(fake.requests[1].length.iterations, 500u);
  EXPECT_FALSE(fake.requests[1].check);
  EXPECT_TRUE(fake.requests[2].check);
  EXPECT_EQ(fake.requests[2].cpus, (std::vector<int>{0, 1}));
  EXPECT_DOUBLE_EQ(c.counters.at("msgs"), 4 * 500);
  EXPECT_EQ(checked.messages, 4u * 500);  // every QP's messages were checked
  EXPECT_EQ(checked.errors, 0u);
}

TEST(BenchmarkMeasurement, OverAnUnreliableTransportOnlyWhatArrivedWasCheckedAndCounted) {
  TestSpec spec = verified("send", Mode::kBandwidth, 2, 1);
  spec.transport = *parse_transport("uc");
  FakeRuns fake(spec);
  fake.lost_per_stream = 30;
  std::vector<uint64_t> samples;
  BenchmarkMeasurement m(fake, spec, {{500, 0, 0, 16}, {}, false}, samples);
  m.warm_up();
  const RunCounters c = m.timed_run();
  EXPECT_DOUBLE_EQ(c.counters.at("sent_msgs"), 2 * 500);
  EXPECT_DOUBLE_EQ(c.counters.at("received_msgs"), 2 * 470);
  EXPECT_DOUBLE_EQ(c.counters.at("lost_msgs"), 2 * 30);
  EXPECT_DOUBLE_EQ(c.counters.at("loss_fraction"), 0.06);
  EXPECT_DOUBLE_EQ(c.counters.at("msgs"), 2 * 470);  // what arrived
  EXPECT_DOUBLE_EQ(c.counters.at("qp1_msgs"), 470);
  EXPECT_DOUBLE_EQ(c.counters.at("bytes_per_second"), c.counters.at("msgs_per_second") * 64);
  EXPECT_EQ(m.check().messages, 2u * 470);
}

TEST(BenchmarkMeasurement, ATimedWindowHasRoomForEveryRoundTripAndChecksAFixedCount) {
  const TestSpec spec = verified("write", Mode::kLatency, 2, 2);
  FakeRuns fake(spec);
  std::vector<uint64_t> samples;
  // A 1 s window after a warm-up whose round trips took 2 us: room for 2 x 1 s / 2 us + 1024
  // per thread.
  BenchmarkMeasurement m(fake, spec, {{1, 1'000'000'000, 0, 16}, {}, false}, samples);
  m.warm_up();
  EXPECT_EQ(samples.size(), 2u * (2 * 1'000'000'000 / 2000 + 1024));
  m.check();
  EXPECT_EQ(fake.requests.back().length.iterations, kVerifyMessagesAfterWindow);
  EXPECT_FALSE(fake.requests.back().length.timed_window());
}

TEST(BenchmarkMeasurement, TheMeshCountsTheCheckRunAsRunDoes) {
  const TestSpec spec = verified("write_imm", Mode::kBandwidth, 2, 1);
  FakeRuns fake(spec);
  PairRunOptions o;
  o.length.iterations = 300;
  const auto counters = measure_one_pair(fake, spec, o);
  const CheckOutcome as_run = check_outcome(spec, 300, 0);
  EXPECT_DOUBLE_EQ(counters.at("verified_messages"), static_cast<double>(as_run.messages));
  EXPECT_DOUBLE_EQ(counters.at("verified_messages"), 600);
  EXPECT_DOUBLE_EQ(counters.at("verify_errors"), 0);
}

TEST(BenchmarkMeasurement, TheMeshFailsAPairWhoseCheckRunFoundCorruption) {
  const TestSpec spec = verified("send", Mode::kLatency, 1, 1);
  FakeRuns fake(spec);
  fake.check_errors = 3;
  try {
    measure_one_pair(fake, spec, PairRunOptions{});
    FAIL() << "a corrupt check run passed";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kVerification);
  }
}

// mesh --validate: a pair's timed run is a checking run and its counters say what it checked
// (1 200: 300 a QP each way over two QPs, the fake's counts).
TEST(BenchmarkMeasurement, TheMeshValidatesAPairsTimedRunAndCountsWhatItChecked) {
  TestSpec spec = a_spec("send", Mode::kBandwidth, 64, 2, 1);
  spec.validate = true;
  FakeRuns fake(spec);
  PairRunOptions o;
  o.length.iterations = 300;
  const auto counters = measure_one_pair(fake, spec, o);
  ASSERT_FALSE(fake.requests.empty());
  EXPECT_TRUE(fake.requests.back().check);
  EXPECT_DOUBLE_EQ(counters.at("validated_messages"), 1200);
  spec.validate = false;
  FakeRuns plain(spec);
  EXPECT_EQ(measure_one_pair(plain, spec, o).count("validated_messages"), 0u);
}

TEST(BenchmarkMeasurement, BothDirectionsAreCheckedWithBidir) {
  TestSpec spec = verified("send", Mode::kBandwidth, 3, 1);
  spec.bidir = true;
  EXPECT_EQ(check_outcome(spec, 100, 0).messages, 600u);
}

// A timed window that counted nothing is an error (exit 5), not a row of zeros: in the
// deterministic guest four QPs of 64 KiB writes counted 0 in a 0.5 s window and printed
// 0.00 MiB/s with exit 0.
TEST(BenchmarkMeasurement, ATimedWindowThatCountedNothingIsAnError) {
  for (const Mode mode : {Mode::kBandwidth, Mode::kLatency}) {
    const TestSpec spec = a_spec("write", mode, 65536, mode == Mode::kBandwidth ? 4 : 1, 1);
    FakeRuns fake(spec);
    fake.nothing_in_window = true;
    std::vector<uint64_t> samples;
    BenchmarkMeasurement m(fake, spec, {{1, 500'000'000, 100'000'000, 16}, {}, false}, samples);
    m.warm_up();  // by iterations: counts as ever
    try {
      m.timed_run();
      ADD_FAILURE() << "a window that counted nothing gave figures";
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), ExitCode::kRuntime);
      EXPECT_NE(std::string(e.what()).find(spec.name() + ": nothing measured"), std::string::npos)
          << e.what();
    }
  }
}

TEST(BenchmarkMeasurement, ATimedWindowThatCountedSomethingGivesFigures) {
  const TestSpec spec = a_spec("write", Mode::kBandwidth, 65536, 4, 1);
  FakeRuns fake(spec);
  std::vector<uint64_t> samples;
  BenchmarkMeasurement m(fake, spec, {{1, 500'000'000, 100'000'000, 16}, {}, false}, samples);
  EXPECT_GT(m.timed_run().counters.at("msgs"), 0);
}

// --validate: every timed run is a checking run (its figures pay for the checks), with the
// debug corruption only when asked; the row counts what it checked.
TEST(BenchmarkMeasurement, AValidatedTimedRunChecksEveryMessageAndCountsThem) {
  TestSpec spec = a_spec("send", Mode::kBandwidth, 64, 2, 1);
  spec.validate = true;
  FakeRuns fake(spec);
  std::vector<uint64_t> samples;
  BenchmarkMeasurement m(fake, spec, {{500, 0, 0, 16}, {}, true}, samples);
  m.warm_up();
  const RunCounters c = m.timed_run();
  ASSERT_EQ(fake.requests.size(), 2u);
  EXPECT_FALSE(fake.requests[0].check);  // the warm-up checks nothing
  EXPECT_TRUE(fake.requests[1].check);
  EXPECT_TRUE(fake.requests[1].corrupt);  // --debug-corrupt, for the guests' tests
  EXPECT_DOUBLE_EQ(c.counters.at("validated_messages"), 2000);  // 500 a QP each way (the fake's)
}

// A corrupt byte in a validated timed run fails it as --verify's does (exit 6), naming how many
// and the first bad message, its QP and the side whose check found it.
TEST(BenchmarkMeasurement, AValidatedTimedRunThatFoundCorruptionFailsNamingTheFirstMessage) {
  TestSpec spec = a_spec("send", Mode::kBandwidth, 64, 4, 2);
  spec.validate = true;
  FakeRuns fake(spec);
  fake.check_errors = 3;
  std::vector<uint64_t> samples;
  BenchmarkMeasurement m(fake, spec, {{500, 0, 0, 16}, {}, false}, samples);
  m.warm_up();
  try {
    m.timed_run();
    FAIL() << "a corrupt timed run passed";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kVerification);
    const std::string what = e.what();
    EXPECT_NE(what.find("--validate found 3 corrupt bytes/messages"), std::string::npos) << what;
    EXPECT_NE(what.find("message 7 of QP 3"), std::string::npos) << what;
    EXPECT_NE(what.find("checked by the server"), std::string::npos) << what;
  }
  EXPECT_FALSE(fake.requests.back().corrupt);
}
