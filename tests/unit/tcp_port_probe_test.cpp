// tcp_port_held: the probe by which an iWARP connection's rdma_cm id is dropped for another
// when TCP holds its port (siw's bind would fail there with EADDRINUSE).
#include "core/tcp_port_probe.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <unistd.h>

namespace rdmabench {
namespace {

class Socket {
 public:
  explicit Socket(bool reuse) : fd_(socket(AF_INET, SOCK_STREAM, 0)) {
    const int on = reuse ? 1 : 0;
    setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  }
  ~Socket() { close(fd_); }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  // Bound to 127.0.0.1 on a port the kernel picks; that address, port included.
  sockaddr_in bind_any() {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    socklen_t length = sizeof a;
    getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &length);
    return a;
  }
  void listen_on() { ASSERT_EQ(listen(fd_, 1), 0); }

 private:
  int fd_;
};

bool held(const sockaddr_in& a) {
  return tcp_port_held(reinterpret_cast<const sockaddr&>(a));
}

TEST(TcpPortProbe, APortBoundWithoutReuseIsHeld) {
  Socket s(false);
  EXPECT_TRUE(held(s.bind_any()));
}

TEST(TcpPortProbe, APortListenedOnIsHeldEvenWithReuse) {
  Socket s(true);
  const auto a = s.bind_any();
  s.listen_on();
  EXPECT_TRUE(held(a));
}

TEST(TcpPortProbe, APortBoundWithReuseAndNotListenedOnIsFree) {
  // What siw's own sockets are (SO_REUSEADDR, connecting): no obstacle to another such bind.
  Socket s(true);
  EXPECT_FALSE(held(s.bind_any()));
}

TEST(TcpPortProbe, APortFreedIsFreeAndTheProbeLeavesNothingBehind) {
  sockaddr_in a{};
  {
    Socket s(false);
    a = s.bind_any();
  }
  EXPECT_FALSE(held(a));
  EXPECT_FALSE(held(a));  // the first probe's socket holds nothing after it
}

TEST(TcpPortProbe, AnAddressOfNoKnownFamilyIsNotHeld) {
  sockaddr unknown{};
  unknown.sa_family = AF_UNIX;
  EXPECT_FALSE(tcp_port_held(unknown));
}

}  // namespace
}  // namespace rdmabench
