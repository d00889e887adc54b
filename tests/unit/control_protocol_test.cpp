#include "session/control_protocol.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "messages/control_channel.h"
#include "messages/protocol_version.h"
#include "messages/spec_json.h"
#include "spec/spec_validation.h"
#include "spec_fixture.h"
#include "verbs/verbs_error.h"

using namespace rdmabench;
using nlohmann::json;

namespace {

class RecordingHost final : public TestHost {
 public:
  void setup(const TestSpec& spec) override { calls.push_back("setup " + spec.name()); }
  SideReport run(const RunOrder& order) override {
    const RunLength& length = order.length;
    std::string call = "run " + std::to_string(length.iterations);
    if (order.check) call += " check";
    if (order.device_counters) call += " counters";
    if (length.timed_window()) {
      call += " " + std::to_string(length.duration_ns);
      call += "ns+" + std::to_string(length.margin_ns) + "ns";
    }
    calls.push_back(call);
    return {};
  }
  void teardown() override { calls.push_back("teardown"); }
  ServerPath path() override { return {}; }
  void result(const ClientFigures& f) override {
    calls.push_back("result " + std::to_string(f.msgs) + (f.lat_p50_us ? " lat" : " bw"));
  }
  std::vector<std::string> calls;
};

json hello() {
  return {{"type", "hello"}, {"protocol", kControlProtocolVersion}, {"version", "test"}};
}

// A "run" message: by iterations, or with a timed window.
json run(json iters, json check, uint64_t duration_ms = 0, uint64_t margin_ms = 0,
         json counters = false) {
  return {{"type", "run"},
          {"iters", std::move(iters)},
          {"check", std::move(check)},
          {"counters", std::move(counters)},
          {"duration_ms", duration_ms},
          {"margin_ms", margin_ms}};
}

json setup() {
  return {{"type", "setup"}, {"spec", to_json(a_spec())}};
}

ExitCode error_of(ControlProtocol& p, const json& message) {
  try {
    p.handle(message);
  } catch (const Error& e) {
    return e.exit_code();
  }
  return ExitCode::kOk;
}

}  // namespace

TEST(ControlProtocol, HelloSetupRunTeardownBye) {
  RecordingHost host;
  ControlProtocol p(host, ServerDetails{.version = "srv"});
  EXPECT_EQ(p.handle(hello())->at("version"), "srv");
  EXPECT_FALSE(p.handle(setup()));
  EXPECT_EQ(p.handle(run(10, false))->at("type"), "done");
  EXPECT_EQ(p.handle(run(1, false, 2000, 500))->at("type"), "done");
  EXPECT_EQ(p.handle(run(10, false, 0, 0, true))->at("type"), "done");
  EXPECT_EQ(p.handle({{"type", "path"}})->at("type"), "path");
  EXPECT_FALSE(p.handle({{"type", "teardown"}}));
  EXPECT_EQ(error_of(p, {{"type", "path"}}), ExitCode::kConnection);
  EXPECT_FALSE(p.finished());
  EXPECT_FALSE(p.handle({{"type", "bye"}}));
  EXPECT_TRUE(p.finished());
  EXPECT_EQ(host.calls, (std::vector<std::string>{"setup write/bw/busy/65536", "run 10",
                                                  "run 1 2000000000ns+500000000ns",
                                                  "run 10 counters", "teardown"}));
}

TEST(ControlProtocol, HelloComesFirstAndVersionsMustMatch) {
  RecordingHost host;
  ControlProtocol p(host, ServerDetails{.version = "srv"});
  EXPECT_EQ(error_of(p, setup()), ExitCode::kConnection);
  ControlProtocol q(host, ServerDetails{.version = "srv"});
  json other = hello();
  other["protocol"] = "one";
  EXPECT_EQ(error_of(q, other), ExitCode::kConnection);
  EXPECT_TRUE(host.calls.empty());
}

TEST(ControlProtocol, RunNeedsSetupAndSaneIterations) {
  RecordingHost host;
  ControlProtocol p(host, {});
  p.handle(hello());
  EXPECT_EQ(error_of(p, run(5, false)), ExitCode::kConnection);
  p.handle(setup());
  json no_check = run(5, false);
  no_check.erase("check");
  EXPECT_EQ(error_of(p, no_check), ExitCode::kConnection);
  EXPECT_EQ(error_of(p, run(5, 1)), ExitCode::kConnection);
  json no_counters = run(5, false);
  no_counters.erase("counters");
  EXPECT_EQ(error_of(p, no_counters), ExitCode::kConnection);
  EXPECT_EQ(error_of(p, run(5, false, 0, 0, "yes")), ExitCode::kConnection);
  EXPECT_EQ(p.handle(run(5, true))->at("type"), "done");
  EXPECT_EQ(error_of(p, run(0, false)), ExitCode::kConnection);
  EXPECT_EQ(error_of(p, run("5", false)), ExitCode::kConnection);
  EXPECT_EQ(error_of(p, {{"type", "run"}}), ExitCode::kConnection);
  // A timed window: both fields, each within its bound (a day; an hour of margin).
  json no_margin = run(5, false, 1000);
  no_margin.erase("margin_ms");
  EXPECT_EQ(error_of(p, no_margin), ExitCode::kConnection);
  EXPECT_EQ(error_of(p, run(5, false, kMaxDurationMs + 1)), ExitCode::kConnection);
  EXPECT_EQ(error_of(p, run(5, false, 1000, kMaxMarginMs + 1)), ExitCode::kConnection);
  p.handle({{"type", "teardown"}});
  EXPECT_EQ(error_of(p, run(5, false)), ExitCode::kConnection);
  EXPECT_EQ(host.calls,
            (std::vector<std::string>{"setup write/bw/busy/65536", "run 5 check", "teardown"}));
}

// The client's figures after a timed run, which the server prints as perftest's does: only
// after setup, every figure a finite number in range, the latencies both or neither. A peer's
// NaN arrives as null, which is no number.
TEST(ControlProtocol, AResultIsTheClientsFiguresCheckedBeforeTheLogSeesThem) {
  RecordingHost host;
  ControlProtocol p(host, {});
  p.handle(hello());
  const json bw = result_message({19753, 1.3e9, 2.0e4, std::nullopt, std::nullopt});
  EXPECT_EQ(error_of(p, bw), ExitCode::kConnection);  // before setup
  p.handle(setup());
  EXPECT_FALSE(p.handle(bw));
  EXPECT_FALSE(p.handle(result_message({2000, 4000, 2e5, 2.5, 9.75})));
  for (const auto& [key, value] :
       std::vector<std::pair<std::string, json>>{{"msgs", -1},
                                                 {"msgs", 1.5},
                                                 {"bytes_per_second", nullptr},
                                                 {"bytes_per_second", 1e300},
                                                 {"msgs_per_second", "fast"},
                                                 {"lat_p50_us", -2}}) {
    json bad = bw;
    bad[key] = value;
    EXPECT_EQ(error_of(p, bad), ExitCode::kConnection) << bad.dump();
  }
  json half = bw;
  half["lat_p99_us"] = 3.0;  // one latency without the other
  EXPECT_EQ(error_of(p, half), ExitCode::kConnection);
  EXPECT_EQ(host.calls, (std::vector<std::string>{"setup write/bw/busy/65536", "result 19753 bw",
                                                  "result 2000 lat"}));
}

TEST(ControlProtocol, BadSpecsNeverReachTheHost) {
  RecordingHost host;
  ControlProtocol p(host, {});
  p.handle(hello());
  json bad = setup();
  bad["spec"]["size"] = 0;
  EXPECT_EQ(error_of(p, bad), ExitCode::kUsage);
  EXPECT_EQ(error_of(p, {{"type", "setup"}}), ExitCode::kUsage);
  EXPECT_EQ(error_of(p, {{"type", "launch"}}), ExitCode::kConnection);
  EXPECT_TRUE(host.calls.empty());
}

TEST(ControlMessages, MalformedLinesAreConnectionErrorsQuotedSafely) {
  const std::vector<std::string> lines = {
      "", "nonsense", "[1]", "{\"type\": 7}", "{\"no\": 1}", std::string("\x1b[2J\xff{", 5)};
  for (const std::string& line : lines) {
    try {
      parse_control_message(line, "peer");
      ADD_FAILURE() << line;
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), ExitCode::kConnection);
      for (const char c : std::string(e.what()))
        EXPECT_TRUE(c >= 0x20 && c < 0x7f) << "unescaped byte in: " << e.what();
    }
  }
}

TEST(ControlMessages, APeersErrorKeepsOnlyAFailureExitCode) {
  auto code_of = [](const std::string& line) {
    try {
      parse_control_message(line, "peer");
    } catch (const Error& e) {
      return e.exit_code();
    }
    return ExitCode::kOk;
  };
  EXPECT_EQ(code_of(R"({"type":"error","exit_code":2,"message":"bad"})"), ExitCode::kUsage);
  EXPECT_EQ(code_of(R"({"type":"error","exit_code":0})"), ExitCode::kConnection);
  EXPECT_EQ(code_of(R"({"type":"error","exit_code":"2"})"), ExitCode::kConnection);
  EXPECT_EQ(code_of(R"({"type":"error","exit_code":99})"), ExitCode::kConnection);
  // The server's own device event (its port went down) reaches the client as such.
  EXPECT_EQ(code_of(R"({"type":"error","exit_code":9})"), ExitCode::kDeviceEvent);
  // Codes only a client's own judgement gives are not the server's to give.
  EXPECT_EQ(code_of(R"({"type":"error","exit_code":7})"), ExitCode::kConnection);
  EXPECT_EQ(code_of(R"({"type":"error","exit_code":8})"), ExitCode::kConnection);
}

// serve --key or --cert: the client proved itself in the channel's TLS handshake before its
// first message, and has the idle timeout from then on; a client in clear earns it only by
// setting up a benchmark.
TEST(ControlProtocol, AClientThatProvedItselfInTheHandshakeIsTrustedFromItsFirstMessage) {
  const ServerDetails details{.version = "srv", .hostname = "host-1"};
  RecordingHost host;
  ControlProtocol proved(host, details, true);
  EXPECT_TRUE(proved.trusted());
  EXPECT_EQ((*proved.handle(hello()))["hostname"], "host-1");
  ControlProtocol in_clear(host, details);
  EXPECT_FALSE(in_clear.trusted());
  EXPECT_EQ((*in_clear.handle(hello()))["hostname"], "host-1");
  EXPECT_FALSE(in_clear.trusted());
  EXPECT_FALSE(in_clear.handle(setup()));
  EXPECT_TRUE(in_clear.trusted());
}
