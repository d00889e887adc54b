// A rank's flows of a traffic round: set up and warmed up on threads of their own, the ranks'
// barrier once all are ready, then every timed window; a flow that cannot connect is its own
// failure and holds back none of the others.
#include "mesh/flow_measurement.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>

#include "core/error.h"
#include "spec_fixture.h"

using namespace rdmabench;

namespace {

// What happened, in order, over every flow's thread.
struct Events {
  std::mutex lock;
  std::vector<std::string> seen;
  std::atomic<int> warming{0}, most_warming{0};
  void add(const std::string& what) {
    std::lock_guard<std::mutex> hold(lock);
    seen.push_back(what);
  }
};

class FlowFake : public RunSource {
 public:
  FlowFake(const TestSpec& spec, Events& events, int server)
      : spec_(spec), events_(events), server_(server) {}
  RunResult run(const ClientRun& request, std::span<uint64_t>) override {
    const bool window = request.length.timed_window();
    if (!window) {  // the warm-up: held until every flow is warming up, or a second
      const int now = ++events_.warming;
      int most = events_.most_warming.load();
      while (now > most && !events_.most_warming.compare_exchange_weak(most, now)) {
      }
      for (int i = 0; i < 1000 && events_.most_warming.load() < 3; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    events_.add((window ? "window " : "warm-up ") + std::to_string(server_));
    RunResult r;
    for (SideReport* side : {&r.client, &r.server}) {
      side->threads.assign(1, SideFigures{1000, 0, 0, 0, 0, 0});
      side->total = SideFigures{1000, 0, 0, 0, 0, 0};
      side->counted.assign(1, 100);
      side->sent.assign(1, 100);
      side->received.assign(1, 100);
      side->finish_ns.assign(1, 0);
      side->window_ns = 1'000'000;
    }
    return r;
  }

 private:
  const TestSpec& spec_;
  Events& events_;
  int server_;
};

PairRunOptions windowed() {
  PairRunOptions run;
  run.length.duration_ns = 1'000'000;
  run.length.warmup = 4;
  return run;
}

}  // namespace

TEST(FlowMeasurement, EveryWindowStartsAfterEveryFlowIsReadyAndTheBarrier) {
  const TestSpec spec = a_spec("write", Mode::kBandwidth, 65536, 1, 1);
  Events events;
  const std::vector<TrafficFlow> flows = {{0, 1, 0}, {0, 2, 0}, {0, 3, 0}};
  const auto results = measure_flows(
      flows, spec, windowed(),
      [&](const TrafficFlow& f) { return std::make_unique<FlowFake>(spec, events, f.server); },
      [&] { events.add("barrier"); });
  ASSERT_EQ(results.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(results[i].pair.server, flows[i].server);
    EXPECT_EQ(results[i].exit_code, 0) << results[i].error;
    EXPECT_GT(results[i].counters.at("bytes_per_second"), 0);
  }
  ASSERT_EQ(events.seen.size(), 7u);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(events.seen[i].rfind("warm-up", 0), 0u);
  EXPECT_EQ(events.seen[3], "barrier");
  for (size_t i = 4; i < 7; ++i) EXPECT_EQ(events.seen[i].rfind("window", 0), 0u);
  EXPECT_EQ(events.most_warming.load(), 3) << "the flows warmed up one after another";
}

TEST(FlowMeasurement, AFlowThatCannotConnectFailsAloneAndStillLetsTheRoundGo) {
  const TestSpec spec = a_spec("write", Mode::kBandwidth, 65536, 1, 1);
  Events events;
  events.most_warming = 3;  // no warm-up waits for the others
  int barriers = 0;
  const auto results = measure_flows(
      {{0, 1, 0}, {0, 2, 0}}, spec, windowed(),
      [&](const TrafficFlow& f) -> std::unique_ptr<RunSource> {
        if (f.server == 1) throw Error(ExitCode::kConnection, "connect: refused");
        return std::make_unique<FlowFake>(spec, events, f.server);
      },
      [&] { ++barriers; });
  EXPECT_EQ(barriers, 1);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].exit_code, static_cast<int>(ExitCode::kConnection));
  EXPECT_EQ(results[0].error, "connect: refused");
  EXPECT_TRUE(results[0].counters.empty());
  EXPECT_EQ(results[1].exit_code, 0);
}

TEST(FlowMeasurement, ARankWithNoFlowStillMeetsTheBarrier) {
  const TestSpec spec = a_spec("write", Mode::kBandwidth, 65536, 1, 1);
  int barriers = 0;
  const auto results = measure_flows(
      {}, spec, windowed(),
      [](const TrafficFlow&) -> std::unique_ptr<RunSource> { return nullptr; },
      [&] { ++barriers; });
  EXPECT_TRUE(results.empty());
  EXPECT_EQ(barriers, 1);
}

TEST(FlowMeasurement, ABarrierThatThrowsLetsEveryThreadEnd) {
  const TestSpec spec = a_spec("write", Mode::kBandwidth, 65536, 1, 1);
  Events events;
  events.most_warming = 3;
  EXPECT_THROW(
      measure_flows(
          {{0, 1, 0}}, spec, windowed(),
          [&](const TrafficFlow& f) { return std::make_unique<FlowFake>(spec, events, f.server); },
          [] { throw Error(ExitCode::kConnection, "barrier"); }),
      Error);
  EXPECT_EQ(events.seen, std::vector<std::string>{"warm-up 1"});
}

// mesh --validate over a traffic plan: each flow's window is a checking run, and says so.
TEST(FlowMeasurement, AValidatedFlowCountsWhatItsWindowChecked) {
  TestSpec spec = a_spec("send", Mode::kBandwidth, 4096, 1, 1);
  spec.validate = true;
  Events events;
  const std::vector<TrafficFlow> flows = {{0, 1, 0}, {0, 2, 0}, {0, 3, 0}};
  const auto results = measure_flows(
      flows, spec, windowed(),
      [&](const TrafficFlow& f) { return std::make_unique<FlowFake>(spec, events, f.server); },
      [] {});
  ASSERT_EQ(results.size(), 3u);
  for (const PairResult& r : results) {
    EXPECT_EQ(r.exit_code, 0) << r.error;
    EXPECT_GT(r.counters.at("validated_messages"), 0);
  }
}
