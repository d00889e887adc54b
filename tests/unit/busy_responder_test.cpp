#include "control/busy_responder.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "control/tcp_socket.h"
#include "descriptor_limit.h"
#include "listening_port.h"

using namespace rdmabench;

namespace {
const AddressAllowList everyone;
}  // namespace
using namespace std::chrono_literals;

namespace {

using rdmabench::testing::NoFreeDescriptors;
using rdmabench::testing::port_of;
using rdmabench::testing::WaitingClient;

double process_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

}  // namespace

TEST(BusyResponder, AFailingAcceptDoesNotSpin) {
  // Before: an accept that failed (EMFILE with a client waiting) was retried at once, forever,
  // taking a whole core away from the measurement the server is running.
  TcpSocket listener = TcpSocket::listen(0);
  WaitingClient client;
  double used = 0;
  {
    BusyResponder responder(listener, utc_now_iso8601(), everyone);
    NoFreeDescriptors limit;
    ASSERT_TRUE(client.connect_to(port_of(listener)));
    const double before = process_cpu_seconds();
    std::this_thread::sleep_for(500ms);
    used = process_cpu_seconds() - before;
  }
  EXPECT_LT(used, 0.1) << "CPU seconds used in 0.5 s while accept kept failing";
}

TEST(BusyResponder, StopsPromptlyWhileAcceptFails) {
  TcpSocket listener = TcpSocket::listen(0);
  WaitingClient client;
  auto stopping = std::chrono::steady_clock::now();
  {
    BusyResponder responder(listener, utc_now_iso8601(), everyone);
    NoFreeDescriptors limit;
    ASSERT_TRUE(client.connect_to(port_of(listener)));
    std::this_thread::sleep_for(50ms);
    stopping = std::chrono::steady_clock::now();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - stopping, 50ms);
}

namespace {

// A connected client's socket and the first line it is sent.
std::string first_line_to(uint16_t port, bool says_hello) {
  TcpSocket client = TcpSocket::connect("127.0.0.1", port, 30s);
  if (says_hello) client.send_all("{\"type\":\"hello\"}\n", 30s);
  return client.receive_line(30s);
}

}  // namespace

TEST(BusyResponder, ARefusedAddressIsToldSoWithoutAnythingItSendsBeingRead) {
  // Before: the responder read a connection's first line (waiting up to 2 s for it) before it
  // checked --allow. Here an allowed client would wait an hour for its hello to be read.
  TcpSocket listener = TcpSocket::listen(0);
  const AddressAllowList elsewhere = AddressAllowList::parse("10.0.0.0/8");
  BusyResponder responder(listener, "2026-11-26T00:00:00Z", elsewhere, std::chrono::hours(1));
  const std::string said = first_line_to(port_of(listener), false);
  EXPECT_NE(said.find("does not answer clients from 127.0.0.1"), std::string::npos) << said;
}

TEST(BusyResponder, TheBusyAnswerDoesNotNameTheClientBeingServed) {
  TcpSocket listener = TcpSocket::listen(0);
  BusyResponder responder(listener, "2026-11-26T00:00:00Z", everyone);
  const nlohmann::json said = nlohmann::json::parse(first_line_to(port_of(listener), true));
  EXPECT_EQ(said.value("type", ""), "busy");
  EXPECT_EQ(said.value("serving", ""), "another client");
  EXPECT_EQ(said.value("since", ""), "2026-11-26T00:00:00Z");
}
