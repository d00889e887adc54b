#include "engine/control_protocol.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "net/control_channel.h"
#include "verbs/error.h"

using namespace rdmabench;
using nlohmann::json;

namespace {

class RecordingHost final : public TestHost {
 public:
  void setup(const TestSpec& spec) override { calls.push_back("setup " + spec.name()); }
  json run(uint64_t iterations, bool check) override {
    calls.push_back("run " + std::to_string(iterations) + (check ? " check" : ""));
    return {{"type", "done"}};
  }
  void teardown() override { calls.push_back("teardown"); }
  json path() override { return {{"port", 1}}; }
  std::vector<std::string> calls;
};

json hello() {
  return {{"type", "hello"}, {"protocol", kControlProtocolVersion}, {"version", "test"}};
}

json setup() {
  return {{"type", "setup"}, {"spec", to_json(TestSpec{})}};
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
  ControlProtocol p(host, {{"type", "hello"}, {"version", "srv"}});
  EXPECT_EQ(p.handle(hello())->at("version"), "srv");
  EXPECT_FALSE(p.handle(setup()));
  EXPECT_EQ(p.handle({{"type", "run"}, {"iters", 10}, {"check", false}})->at("type"), "done");
  EXPECT_EQ(p.handle({{"type", "path"}})->at("type"), "path");
  EXPECT_FALSE(p.handle({{"type", "teardown"}}));
  EXPECT_EQ(error_of(p, {{"type", "path"}}), ExitCode::kConnection);
  EXPECT_FALSE(p.finished());
  EXPECT_FALSE(p.handle({{"type", "bye"}}));
  EXPECT_TRUE(p.finished());
  EXPECT_EQ(host.calls,
            (std::vector<std::string>{"setup write/bw/busy/65536", "run 10", "teardown"}));
}

TEST(ControlProtocol, HelloComesFirstAndVersionsMustMatch) {
  RecordingHost host;
  ControlProtocol p(host, {{"version", "srv"}});
  EXPECT_EQ(error_of(p, setup()), ExitCode::kConnection);
  ControlProtocol q(host, {{"version", "srv"}});
  json other = hello();
  other["protocol"] = "one";
  EXPECT_EQ(error_of(q, other), ExitCode::kConnection);
  EXPECT_TRUE(host.calls.empty());
}

TEST(ControlProtocol, RunNeedsSetupAndSaneIterations) {
  RecordingHost host;
  ControlProtocol p(host, {});
  p.handle(hello());
  EXPECT_EQ(error_of(p, {{"type", "run"}, {"iters", 5}, {"check", false}}), ExitCode::kConnection);
  p.handle(setup());
  EXPECT_EQ(error_of(p, {{"type", "run"}, {"iters", 5}}), ExitCode::kConnection);  // no check
  EXPECT_EQ(error_of(p, {{"type", "run"}, {"iters", 5}, {"check", 1}}), ExitCode::kConnection);
  EXPECT_EQ(p.handle({{"type", "run"}, {"iters", 5}, {"check", true}})->at("type"), "done");
  EXPECT_EQ(error_of(p, {{"type", "run"}, {"iters", 0}}), ExitCode::kConnection);
  EXPECT_EQ(error_of(p, {{"type", "run"}, {"iters", "5"}}), ExitCode::kConnection);
  EXPECT_EQ(error_of(p, {{"type", "run"}}), ExitCode::kConnection);
  p.handle({{"type", "teardown"}});
  EXPECT_EQ(error_of(p, {{"type", "run"}, {"iters", 5}}), ExitCode::kConnection);
  EXPECT_EQ(host.calls,
            (std::vector<std::string>{"setup write/bw/busy/65536", "run 5 check", "teardown"}));
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
}
