// What a timed window that counted nothing says: which direction, the window, and why, from
// what the run reported; and what it leaves alone (runs by iterations, a measured loss).
#include "measure/empty_window.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "spec/transport.h"
#include "spec_fixture.h"

using namespace rdmabench;

namespace {

constexpr RunLength kWindow{1, 500'000'000, 100'000'000, 16};  // 100 ms to 600 ms

RunResult counted(const TestSpec& spec, uint64_t client, uint64_t server) {
  RunResult r;
  r.client.counted.assign(spec.qps, client);
  r.client.sent.assign(spec.qps, 129);
  r.server.counted.assign(spec.qps, server);
  r.server.sent.assign(spec.qps, 7);
  return r;
}

std::string refusal(const TestSpec& spec, const RunLength& length, const RunResult& r) {
  try {
    require_counted(spec, length, r);
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kRuntime);
    return e.what();
  }
  return "";
}

}  // namespace

TEST(EmptyWindow, AFirstReadAfterTheWindowSaysWhatWasPostedBeforeIt) {
  const TestSpec spec = a_spec("write", Mode::kBandwidth, 65536, 4, 1);
  RunResult r = counted(spec, 0, 0);
  r.client.first_read_ns = 1'007'000'000;
  const std::string why = refusal(spec, kWindow, r);
  EXPECT_NE(why.find(spec.name() + ": nothing measured: no message completed inside the 500 ms "
                                   "timed window (100 ms to 600 ms into the run)"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("first read a completion 1.01 s into the run, after the window had closed"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("128 messages it posted on each of its 4 QPs (32 MiB)"), std::string::npos)
      << why;
  EXPECT_NE(why.find("--duration above 907 ms"), std::string::npos) << why;
}

TEST(EmptyWindow, ThreadsPostTheirOwnQps) {
  TestSpec spec = a_spec("write", Mode::kBandwidth, 65536, 4, 2);
  RunResult r = counted(spec, 0, 0);
  r.client.first_read_ns = 700'000'000;
  const std::string why = refusal(spec, kWindow, r);
  EXPECT_NE(why.find("a client thread first read"), std::string::npos) << why;
  EXPECT_NE(why.find("on each of its 2 QPs (16 MiB)"), std::string::npos) << why;
}

// A window the client watched (it read completions before it) in which none completed is a
// stall it measured: siw's flow into a host slowed to 5 Mbit/s, under incast, completed 272
// sends before and after a 1 s window and none in it. Rate 0, not an error.
TEST(EmptyWindow, AWatchedWindowInWhichNothingCompletedIsAMeasuredStall) {
  const TestSpec spec = a_spec("send", Mode::kBandwidth, 4096, 2, 1);
  RunResult r = counted(spec, 0, 0);
  r.client.first_read_ns = 50'000'000;  // before the window opened at 100 ms
  EXPECT_EQ(refusal(spec, kWindow, r), "");
  r.client.first_read_ns = 100'000'000;  // as it opened: not watched from before
  EXPECT_NE(refusal(spec, kWindow, r), "");
  r.client.first_read_ns.reset();  // none read at all
  EXPECT_NE(refusal(spec, kWindow, r).find("read no completion"), std::string::npos);
}

TEST(EmptyWindow, TheReverseDirectionOfABidirectionalRunCountsToo) {
  TestSpec spec = a_spec("send", Mode::kBandwidth, 4096, 1, 1);
  spec.bidir = true;
  EXPECT_EQ(refusal(spec, kWindow, counted(spec, 10, 3)), "");
  EXPECT_NE(refusal(spec, kWindow, counted(spec, 10, 0))
                .find("none of the server's sends (--bidir) completed inside the 500 ms"),
            std::string::npos);
}

TEST(EmptyWindow, ALatencyWindowWithoutARoundTripInsideIt) {
  const TestSpec spec = a_spec("send", Mode::kLatency, 2, 1, 1);
  EXPECT_NE(refusal(spec, kWindow, counted(spec, 0, 0))
                .find("no round trip both started and ended inside the 500 ms timed window (100 "
                      "ms to 600 ms into the run) (the run made 129"),
            std::string::npos);
  EXPECT_EQ(refusal(spec, kWindow, counted(spec, 1, 0)), "");
}

TEST(EmptyWindow, RunsByIterationsAreLeftAlone) {
  const TestSpec spec = a_spec("write", Mode::kBandwidth, 65536, 4, 1);
  EXPECT_EQ(refusal(spec, {1000, 0, 0, 16}, counted(spec, 0, 0)), "");
}

TEST(EmptyWindow, SendsWhoseMessagesWereAllLostAreAMeasuredLoss) {
  TestSpec spec = a_spec("send", Mode::kBandwidth, 64, 1, 1);
  spec.transport = *parse_transport("ud");
  RunResult r = counted(spec, 40, 0);
  r.server.received.assign(spec.qps, 0);  // every one lost: loss 100 %, measured
  EXPECT_EQ(refusal(spec, kWindow, r), "");
}
