#include "control/busy_responder.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "listening_port.h"
#include "net/tcp_socket.h"

using namespace rdmabench;

namespace {
const AddressAllowList everyone;
}  // namespace
using namespace std::chrono_literals;

namespace {

using rdmabench::testing::port_of;

double process_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// A client connected once the limit below is in place (its socket is made before).
class WaitingClient {
 public:
  WaitingClient() : fd_(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {}
  ~WaitingClient() { close(fd_); }
  bool connect_to(uint16_t port) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  }

 private:
  int fd_;
};

// Lowers the descriptor limit so that the next descriptor the process opens fails with EMFILE;
// restores it when destroyed.
class NoFreeDescriptors {
 public:
  NoFreeDescriptors() {
    getrlimit(RLIMIT_NOFILE, &saved_);
    const int lowest_free = dup(0);
    close(lowest_free);
    rlimit lowered = saved_;
    lowered.rlim_cur = static_cast<rlim_t>(lowest_free);
    setrlimit(RLIMIT_NOFILE, &lowered);
  }
  ~NoFreeDescriptors() { setrlimit(RLIMIT_NOFILE, &saved_); }

 private:
  rlimit saved_{};
};

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
