// What a server may send its client to do harm, each case as it was found (issue 64: hello and
// path typed from edge to edge): a hello whose host name carries terminal escapes went raw into
// the banner the client prints and into the results' context; a hello without its details was
// taken, and reported as "?". The client reads the hello field by field now, and refuses it.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "listening_port.h"
#include "messages/control_channel.h"
#include "messages/protocol_version.h"
#include "session/client_session.h"

namespace rdmabench {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

json server_hello_with(const char* key, const json& value) {
  json hello = {{"type", "hello"},  {"protocol", kControlProtocolVersion},
                {"version", "v"},   {"hostname", "h"},
                {"kernel", "6.1"},  {"rdma_core", "44"},
                {"timing", "real"}, {"kernel_tuning", json::array()},
                {"cpus", ""}};
  hello[key] = value;
  return hello;
}

json server_hello_without(const char* key) {
  json hello = server_hello_with(key, nullptr);
  hello.erase(key);
  return hello;
}

// What a client makes of a server that answers its hello with `reply`: "" when it takes it,
// else its error.
std::string client_verdict(const json& reply) {
  TcpSocket listener = TcpSocket::listen(0);
  std::thread server([&] {
    std::optional<TcpSocket> accepted = listener.accept(-1);
    if (!accepted) return;
    ControlChannel channel(std::move(*accepted), 2000ms);
    (void)channel.receive("hello");
    channel.send(reply);
    try {
      (void)channel.receive(2000ms, -1);  // until the client hangs up
    } catch (const Error&) {
    }
  });
  std::string verdict;
  try {
    const auto options = BootstrapOptions::client("127.0.0.1", {}, 2000ms);
    ClientSession session({"127.0.0.1", testing::port_of(listener)}, options);
  } catch (const Error& e) {
    verdict = e.what();
  }
  server.join();
  return verdict;
}

TEST(HostileServer, AWellFormedHelloIsTaken) {
  EXPECT_EQ(client_verdict(server_hello_with("hostname", "server-1")), "");
}

TEST(HostileServer, TerminalEscapesInTheHostNameAreRefusedNotPrinted) {
  const std::string verdict =
      client_verdict(server_hello_with("hostname", "\x1b[2J\x1b]0;owned\x07"));
  EXPECT_NE(verdict.find("hello.hostname must be printable text"), std::string::npos) << verdict;
  EXPECT_EQ(verdict.find('\x1b'), std::string::npos);
}

TEST(HostileServer, AHelloWithoutItsDetailsIsRefused) {
  const std::string verdict = client_verdict(server_hello_without("kernel"));
  EXPECT_NE(verdict.find("hello.kernel is missing"), std::string::npos) << verdict;
}

TEST(HostileServer, AHostNameLongerThanAnyHostsIsRefused) {
  const std::string verdict = client_verdict(server_hello_with("hostname", std::string(5000, 'h')));
  EXPECT_NE(verdict.find("hello.hostname must be printable text of at most"), std::string::npos)
      << verdict;
}

TEST(HostileServer, AServersKernelTuningIsTakenWordByWord) {
  EXPECT_EQ(client_verdict(server_hello_with("kernel_tuning", {"idle=poll", "isolcpus=2-5"})), "");
  EXPECT_NE(
      client_verdict(server_hello_without("kernel_tuning")).find("hello.kernel_tuning is missing"),
      std::string::npos);
  for (const json& bad : {json("idle=poll"), json{"idle=\x1b]0;owned\x07"}, json{"quiet"}, json{1},
                          json{json{"idle=poll"}}, json(std::vector<std::string>(17, "nosmt"))}) {
    const std::string verdict = client_verdict(server_hello_with("kernel_tuning", bad));
    EXPECT_NE(verdict.find("hello.kernel_tuning"), std::string::npos) << bad.dump();
    EXPECT_EQ(verdict.find('\x1b'), std::string::npos) << verdict;
  }
}

}  // namespace
}  // namespace rdmabench
