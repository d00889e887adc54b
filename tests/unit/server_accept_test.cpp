// The server's accept loop when accept fails: out of descriptors (EMFILE), as a server under a
// low `ulimit -n` is with a client waiting. Before, any accept error but EINTR and ECONNABORTED
// ended `rdmabench serve`; now it logs the failure once, tries again, and serves the client as
// soon as accept works.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <ostream>
#include <string>
#include <thread>

#include "descriptor_limit.h"
#include "listening_port.h"
#include "messages/control_channel.h"
#include "messages/protocol_version.h"
#include "server_thread.h"
#include "session/server.h"

namespace rdmabench {
namespace {

using namespace std::chrono_literals;
using testing::log_shows;
using testing::NoFreeDescriptors;
using testing::port_of;
using testing::ServerThread;
using testing::SharedLog;
using testing::WaitingClient;

TEST(ServerAccept, AcceptOutOfDescriptorsIsSurvivedAndTheClientServedAfter) {
  TcpSocket listener = TcpSocket::listen(0);
  ServerOptions options;
  SharedLog log_buffer;
  std::ostream log(&log_buffer);
  ServerThread server(listener, options, log);
  {  // a first client served: the server is up (its lobby took its descriptors)
    ControlChannel first(TcpSocket::connect("127.0.0.1", port_of(listener), 30s), 30s);
    first.send({{"type", "hello"}, {"protocol", kControlProtocolVersion}, {"version", "t"}});
    (void)first.receive("hello");
    first.send({{"type", "bye"}});
    ASSERT_TRUE(log_shows(log_buffer, "client 127.0.0.1 done", 30s)) << log_buffer.text();
  }
  WaitingClient client;
  {
    const NoFreeDescriptors limit;
    ASSERT_TRUE(client.connect_to(port_of(listener)));
    ASSERT_TRUE(log_shows(log_buffer, "Too many open files", 30s)) << log_buffer.text();
  }
  ControlChannel channel(TcpSocket(dup(client.fd())), 30s);
  channel.send({{"type", "hello"}, {"protocol", kControlProtocolVersion}, {"version", "t"}});
  const nlohmann::json hello = channel.receive();
  channel.send({{"type", "bye"}});
  EXPECT_EQ(hello.value("type", ""), "hello") << hello.dump();
  server.stop();
  EXPECT_EQ(server.ended(), "") << log_buffer.text();
  EXPECT_NE(log_buffer.text().find("accept works again"), std::string::npos) << log_buffer.text();
}

TEST(ServerAccept, OnlyABrokenListenerIsALastingFailure) {
  for (const int err : {EMFILE, ENFILE, ENOBUFS, ENOMEM, EPROTO, ENETDOWN, EHOSTUNREACH,
                        ECONNABORTED, EPERM, ETIMEDOUT})
    EXPECT_FALSE(accept_failure_is_lasting(err)) << err;
  for (const int err : {EBADF, EINVAL, ENOTSOCK, EOPNOTSUPP})
    EXPECT_TRUE(accept_failure_is_lasting(err)) << err;
}

}  // namespace
}  // namespace rdmabench
