#include "control/control_protocol.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "control/control_channel.h"
#include "control/protocol_version.h"
#include "control/spec_json.h"
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

// serve --key: the hello answers with the protocol, the version, a fresh challenge and the
// server's proof over both nonces, and nothing about the host; nothing but the client's right
// proof is heard before the client is in; the key never appears in any message.
json keyed_hello(const std::string& nonce) {
  json h = hello();
  h["nonce"] = nonce;
  return h;
}

TEST(ControlProtocol, AKeyedServerProvesTheKeyFirstAndHearsNothingBeforeTheClientDoes) {
  const SharedKey key = SharedKey::from_bytes("the operator's key, 0123456789abcdef");
  const SharedKey other = SharedKey::from_bytes("someone else's key, 0123456789abcdef");
  const ServerDetails details{.version = "srv", .hostname = "secret-host"};
  RecordingHost host;
  ControlProtocol no_nonce(host, details, &key);
  EXPECT_EQ(error_of(no_nonce, hello()), ExitCode::kConnection);
  const std::string nonce = new_challenge();
  ControlProtocol p(host, details, &key);
  const json greeting = *p.handle(keyed_hello(nonce));
  const std::string challenge = greeting.at("auth").at("challenge");
  EXPECT_EQ(greeting["auth"]["method"], kAuthMethod);
  EXPECT_EQ(greeting["auth"]["proof"], server_proof(key, {nonce, challenge}));
  EXPECT_NE(greeting["auth"]["proof"], server_proof(other, {nonce, challenge}));
  EXPECT_EQ(greeting.dump().find("secret-host"), std::string::npos) << greeting.dump();
  EXPECT_EQ(greeting.dump().find("operator"), std::string::npos);
  EXPECT_EQ(error_of(p, setup()), ExitCode::kConnection);  // no proof given: refused
  ControlProtocol wrong(host, details, &key);
  const std::string c2 = (*wrong.handle(keyed_hello(nonce)))["auth"]["challenge"];
  EXPECT_NE(c2, challenge);  // every client its own
  EXPECT_EQ(error_of(wrong, {{"type", "auth"}, {"response", client_proof(other, {nonce, c2})}}),
            ExitCode::kConnection);
  ControlProtocol mirrored(host, details, &key);  // the server's own proof sent back
  const json g3 = *mirrored.handle(keyed_hello(nonce));
  EXPECT_EQ(error_of(mirrored, {{"type", "auth"}, {"response", g3["auth"]["proof"]}}),
            ExitCode::kConnection);
  EXPECT_TRUE(host.calls.empty());
  EXPECT_FALSE(wrong.take_session());
  ControlProtocol right(host, details, &key);
  const std::string c4 = (*right.handle(keyed_hello(nonce)))["auth"]["challenge"];
  const json ok = *right.handle({{"type", "auth"}, {"response", client_proof(key, {nonce, c4})}});
  EXPECT_EQ(ok["ok"], true);
  EXPECT_EQ(ok["hello"]["hostname"], "secret-host");  // told once the client is in
  std::optional<MessageAuth> server_side = right.take_session();
  ASSERT_TRUE(server_side);
  EXPECT_FALSE(right.take_session());  // once
  EXPECT_FALSE(right.handle(setup()));
  EXPECT_EQ(host.calls, (std::vector<std::string>{"setup write/bw/busy/65536"}));
  MessageAuth client_side = session_auth(key, {nonce, c4}, MessageAuth::Role::kClient);
  const std::string sealed = client_side.seal(R"({"type":"run"})");
  EXPECT_EQ(server_side->open(sealed, "c"), R"({"type":"run"})");
  EXPECT_THROW(server_side->open(sealed, "c"), Error);  // replayed
  std::string changed = client_side.seal(R"({"type":"run","iters":1})");
  changed[20] = '2';
  EXPECT_THROW(server_side->open(changed, "c"), Error);
  EXPECT_THROW(server_side->open(R"({"type":"bye"})", "c"), Error);  // no tag at all
}
