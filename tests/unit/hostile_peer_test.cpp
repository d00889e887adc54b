// What a peer on the control channel may send to do harm, each case as it was found against a
// server (issue: a server nothing on the network can crash, hold or fool): a value nested
// 200,000 deep (SIGSEGV in the dump of the error text), terminal escapes and newlines in a type,
// a version or an error (raw in the server's log and the user's terminal), a type cut inside a
// UTF-8 character (the error could not be encoded, and the client heard nothing).
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "core/bounded_json.h"
#include "core/printable_text.h"
#include "listening_port.h"
#include "messages/control_channel.h"
#include "messages/protocol_version.h"
#include "messages/spec_json.h"
#include "session/control_protocol.h"
#include "session/session_waits.h"
#include "spec_fixture.h"

namespace rdmabench {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using testing::connected_channels;

class NoHost final : public TestHost {
 public:
  void setup(const TestSpec&) override {}
  SideReport run(const RunOrder&) override { return {}; }
  void teardown() override {}
  ServerPath path() override { return {}; }
  void result(const ClientFigures&) override {}
};

// Whether every byte shows as itself on a terminal and the text is one line.
bool one_printable_line(const std::string& text) {
  for (const unsigned char c : text)
    if (c < 0x20 || c >= 0x7f) return false;
  return true;
}

// What the server answers a line from its client: the Error's text, "" when none.
std::string refusal_of(ControlProtocol& protocol, const std::string& line) {
  try {
    protocol.handle(parse_control_message(line, "10.0.0.9"));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string nested(size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

const std::string kHello = R"({"type":"hello","protocol":)" +
                           std::to_string(kControlProtocolVersion) + R"(,"version":"t"})";
const std::string kEscapes = "\x1b[2J\x1b]0;owned\x07\nclient 10.0.0.9 done";

TEST(HostilePeer, ASpecNested200000DeepIsRefusedBeforeAnythingIsBuiltFromIt) {
  NoHost host;
  ControlProtocol protocol(host, ServerDetails{});
  ASSERT_EQ(refusal_of(protocol, kHello), "");
  json spec = to_json(a_spec());
  spec["size"] = "PLACE";
  std::string line = json{{"type", "setup"}, {"spec", spec}}.dump();
  line.replace(line.find("\"PLACE\""), 7, nested(200000));
  const std::string refusal = refusal_of(protocol, line);
  EXPECT_NE(refusal.find("nests deeper than"), std::string::npos) << refusal;
}

TEST(HostilePeer, NestingWithinTheBoundsStillGetsTheFieldsOwnError) {
  NoHost host;
  ControlProtocol protocol(host, ServerDetails{});
  ASSERT_EQ(refusal_of(protocol, kHello), "");
  json spec = to_json(a_spec());
  spec["size"] = json::parse(nested(10));
  const std::string refusal = refusal_of(protocol, json{{"type", "setup"}, {"spec", spec}}.dump());
  EXPECT_NE(refusal.find("spec.size must be an unsigned integer, not [[[["), std::string::npos)
      << refusal;
}

TEST(HostilePeer, BracketsInsideStringsAreNotNesting) {
  const std::string text = R"({"a":"[[[[[[[[[[[[[[[[[[[[\"[[[[[[[[[[[[[[[[[[","b":[1]})";
  EXPECT_EQ(json_bounds_problem(text, {1000, 2}), "");
  EXPECT_NE(json_bounds_problem("[[[]]]", {1000, 2}), "");
  EXPECT_NE(json_bounds_problem("[]", {1, 2}).find("longer than 1 bytes"), std::string::npos);
}

TEST(HostilePeer, EscapesInATypeOrAVersionNeverReachTheErrorRaw) {
  NoHost host;
  ControlProtocol first(host, ServerDetails{});
  const std::string before_hello = refusal_of(first, json{{"type", kEscapes}}.dump());
  EXPECT_TRUE(one_printable_line(before_hello)) << before_hello;
  EXPECT_NE(before_hello, "");

  ControlProtocol second(host, ServerDetails{.version = "v"});
  const std::string mismatch =
      refusal_of(second, json{{"type", "hello"}, {"protocol", 0}, {"version", kEscapes}}.dump());
  EXPECT_TRUE(one_printable_line(mismatch)) << mismatch;
  EXPECT_NE(mismatch.find("protocol version mismatch"), std::string::npos);

  ControlProtocol third(host, ServerDetails{});
  ASSERT_EQ(refusal_of(third, kHello), "");
  const std::string unknown = refusal_of(third, json{{"type", kEscapes}}.dump());
  EXPECT_TRUE(one_printable_line(unknown)) << unknown;
}

TEST(HostilePeer, ATypeCutInsideACharacterStillGetsAnAnswerThatEncodes) {
  NoHost host;
  ControlProtocol protocol(host, ServerDetails{});
  ASSERT_EQ(refusal_of(protocol, kHello), "");
  const std::string type = std::string(39, 'a') + "\xc3\xa9" + "tail";  // 40 bytes cut the é
  const std::string refusal = refusal_of(protocol, json{{"type", type}}.dump());
  ASSERT_NE(refusal, "");
  EXPECT_NO_THROW((void)error_message(4, refusal).dump()) << refusal;
}

TEST(HostilePeer, AMessageThatIsNotUtf8IsStillSent) {
  auto [client, server] = connected_channels();
  server.send_error(4, "unexpected message 'aaa\xc3'");
  try {
    client.receive();
    FAIL() << "the error was not raised";
  } catch (const PeerError& e) {
    EXPECT_NE(std::string(e.what()).find("unexpected message"), std::string::npos) << e.what();
  }
}

TEST(HostilePeer, APeersErrorTextIsOneLineOfPrintableText) {
  const std::string line = json{{"type", "error"}, {"exit_code", 2}, {"message", kEscapes}}.dump();
  try {
    parse_control_message(line, "server");
    FAIL() << "the error was not raised";
  } catch (const PeerError& e) {
    EXPECT_TRUE(one_printable_line(e.what())) << e.what();
    EXPECT_NE(std::string(e.what()).find("client 10.0.0.9 done"), std::string::npos);
  }
}

TEST(PrintableText, KeepsWhatShowsAndEscapesWhatATerminalObeys) {
  EXPECT_EQ(printable("caf\xc3\xa9 \xe4\xb8\xad"), "caf\xc3\xa9 \xe4\xb8\xad");
  EXPECT_EQ(printable("a\xc2\x9b"
                      "2Jb"),
            "a\\xc2\\x9b2Jb");                                  // CSI, a C1 control
  EXPECT_EQ(printable("x\xe2\x80\xaey"), "x\\xe2\\x80\\xaey");  // right-to-left override
  EXPECT_EQ(printable("\xff\xc3"), "\\xff\\xc3");               // not UTF-8
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");               // an overlong '/'
  EXPECT_EQ(printable("ab\xc3\xa9", Keep::kUtf8, 3), "ab");     // never cut a character
  EXPECT_EQ(printable("a\nb\x1b"), "a\nb\\x1b");
  EXPECT_EQ(peer_excerpt("a\nb", 2), "a\\x0a...");
}

TEST(ControlProtocolTrust, TheIdleTimeoutIsEarnedBySetupOrByTheKey) {
  NoHost host;
  ControlProtocol keyless(host, ServerDetails{});
  ASSERT_EQ(refusal_of(keyless, kHello), "");
  EXPECT_FALSE(keyless.trusted());
  keyless.handle({{"type", "teardown"}});
  EXPECT_FALSE(keyless.trusted()) << "a teardown earns nothing";
  keyless.handle({{"type", "setup"}, {"spec", to_json(a_spec())}});
  EXPECT_TRUE(keyless.trusted());
}

TEST(SessionWaits, AWaitEndsAtTheSessionsDeadlineNotAtTheTimeout) {
  auto [client, server] = connected_channels();
  ServerCaps caps;
  caps.max_duration = 20ms;
  const SessionWaits waits(caps, -1, server);
  const auto started = std::chrono::steady_clock::now();
  try {
    waits.receive(std::chrono::hours(1));
    FAIL() << "a message came";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage) << e.what();
    EXPECT_NE(std::string(e.what()).find("has used its time"), std::string::npos) << e.what();
  }
  // Past the deadline no wait starts at all.
  EXPECT_THROW(waits.receive(std::chrono::hours(1)), Error);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::minutes(10));
}

// Every wait of a session, the bootstraps' (which wait on the channel's own --timeout for each
// QP's line) among them, ends at the session's deadline and at the stop signal. Before, a
// client that trickled one "oob" line a QP just under --timeout held the server for QPs x
// --timeout past --max-duration, and a SIGTERM waited out the step.
TEST(SessionWaits, TheBootstrapsWaitsEndAtTheDeadlineAndAtTheStopSignal) {
  {
    auto [client, server] = connected_channels(std::chrono::minutes(1));
    ServerCaps caps;
    caps.max_duration = 300ms;
    const SessionWaits waits(caps, -1, server);
    const auto started = std::chrono::steady_clock::now();
    try {
      server.receive("oob");  // as oob_server waits for each QP's line
      FAIL() << "a message came";
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), ExitCode::kUsage) << e.what();
      EXPECT_NE(std::string(e.what()).find("has used its time"), std::string::npos) << e.what();
    }
    EXPECT_LT(std::chrono::steady_clock::now() - started, 30s) << "waited out the step's minute";
  }
  auto [client, server] = connected_channels(std::chrono::minutes(1));
  int stop[2];
  ASSERT_EQ(pipe(stop), 0);
  const SessionWaits waits(ServerCaps{}, stop[0], server);
  ASSERT_EQ(write(stop[1], "x", 1), 1);  // SIGTERM, as StopSignals tells it
  const auto started = std::chrono::steady_clock::now();
  EXPECT_THROW(server.receive("oob"), Error);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 30s) << "waited out the step's minute";
  close(stop[0]);
  close(stop[1]);
}

}  // namespace
}  // namespace rdmabench
