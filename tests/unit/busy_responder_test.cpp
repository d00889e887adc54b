#include "control/busy_responder.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <chrono>
#include <thread>

#include "descriptor_limit.h"
#include "listening_port.h"
#include "net/tcp_socket.h"

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
    BusyResponder responder(listener, "test", utc_now_iso8601(), everyone);
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
    BusyResponder responder(listener, "test", utc_now_iso8601(), everyone);
    NoFreeDescriptors limit;
    ASSERT_TRUE(client.connect_to(port_of(listener)));
    std::this_thread::sleep_for(50ms);
    stopping = std::chrono::steady_clock::now();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - stopping, 50ms);
}
