// The control channel when the server refuses and closes while the client is still sending
// (a spec over its caps: the client sends its setup and then its QPs' addresses, the server
// answers the setup with an error and drops the connection). The client must report the
// server's reason, not its own failed send: the rxe suite once saw "send(control channel)
// failed: Transport endpoint is not connected" (exit 4) where the server had said why (exit 2).
#include "messages/control_channel.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "listening_port.h"

namespace rdmabench {
namespace {

using namespace std::chrono_literals;

using testing::connected_channels;

// Sends as a client goes on after its setup, until a send fails (the first ones may still be
// taken by the kernel; one after the peer's reset fails) or 200 have gone.
void send_until_one_fails(ControlChannel& client) {
  for (int i = 0; i < 200; ++i) {
    client.send({{"type", "oob"}, {"qp", i}});
    std::this_thread::sleep_for(2ms);
  }
}

TEST(ControlChannel, ASendAfterThePeerRefusedAndClosedRaisesThePeersReason) {
  auto [client, server_end] = connected_channels();
  {
    ControlChannel server = std::move(server_end);
    server.send_error(2, "asks 2 threads, more than this server allows (--max-threads 1)");
  }  // the server closes
  try {
    send_until_one_fails(client);
    FAIL() << "every send after the peer closed succeeded";
  } catch (const PeerError& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage);
    EXPECT_NE(std::string(e.what()).find("(--max-threads 1)"), std::string::npos) << e.what();
  }
}

TEST(ControlChannel, ASendToAPeerThatClosedSilentlyStillSaysTheSendFailed) {
  auto [client, server_end] = connected_channels();
  { ControlChannel server = std::move(server_end); }  // closed without a word
  try {
    send_until_one_fails(client);
    FAIL() << "every send after the peer closed succeeded";
  } catch (const PeerError& e) {
    FAIL() << "a reason the peer never gave: " << e.what();
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kConnection) << e.what();
  }
}

}  // namespace
}  // namespace rdmabench
