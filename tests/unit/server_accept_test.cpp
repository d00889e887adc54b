// The server's accept loop when accept fails: out of descriptors (EMFILE), as a server under a
// low `ulimit -n` is with a client waiting. Before, any accept error but EINTR and ECONNABORTED
// ended `rdmabench serve`; now it logs the failure once, tries again, and serves the client as
// soon as accept works.
#include <gtest/gtest.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <chrono>
#include <mutex>
#include <ostream>
#include <streambuf>
#include <string>
#include <thread>

#include "control/control_channel.h"
#include "control/protocol_version.h"
#include "control/server.h"
#include "descriptor_limit.h"
#include "listening_port.h"

namespace rdmabench {
namespace {

using namespace std::chrono_literals;
using testing::NoFreeDescriptors;
using testing::port_of;
using testing::WaitingClient;

// A log the server's thread writes while the test reads it.
class SharedLog : public std::streambuf {
 public:
  std::string text() {
    const std::lock_guard lock(mutex_);
    return text_;
  }

 protected:
  int overflow(int c) override {
    const std::lock_guard lock(mutex_);
    if (c != traits_type::eof()) text_ += static_cast<char>(c);
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    const std::lock_guard lock(mutex_);
    text_.append(s, static_cast<size_t>(n));
    return n;
  }

 private:
  std::mutex mutex_;
  std::string text_;
};

// Waits (at most `limit`) until the log holds `wanted`.
bool log_shows(SharedLog& log, const std::string& wanted, std::chrono::seconds limit) {
  const auto give_up = std::chrono::steady_clock::now() + limit;
  while (log.text().find(wanted) == std::string::npos) {
    if (std::chrono::steady_clock::now() > give_up) return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

// serve_clients on its own thread, stopped (through its stop descriptor) and joined when
// destroyed, so that a failing test ends instead of hanging or terminating.
class ServerThread {
 public:
  ServerThread(TcpSocket& listener, const ServerOptions& options, std::ostream& log)
      : stop_fd_(eventfd(0, EFD_CLOEXEC)), thread_([&, this] {
          try {
            serve_clients(listener, options, stop_fd_, log);
          } catch (const std::exception& e) {
            ended_ = e.what();
          }
        }) {}
  ~ServerThread() {
    const uint64_t one = 1;
    (void)!write(stop_fd_, &one, sizeof(one));
    if (thread_.joinable()) thread_.join();
    close(stop_fd_);
  }
  ServerThread(const ServerThread&) = delete;
  ServerThread& operator=(const ServerThread&) = delete;
  // What ended serve_clients, if it was an error; read after the thread ended.
  std::string ended() {
    if (thread_.joinable()) thread_.join();
    return ended_;
  }

 private:
  int stop_fd_;
  std::string ended_;
  std::thread thread_;
};

TEST(ServerAccept, AcceptOutOfDescriptorsIsSurvivedAndTheClientServedAfter) {
  TcpSocket listener = TcpSocket::listen(0);
  ServerOptions options;
  options.once = true;
  SharedLog log_buffer;
  std::ostream log(&log_buffer);
  ServerThread server(listener, options, log);
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
