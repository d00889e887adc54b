// Tests of serve_clients on loopback: the server on its own thread, and the log it writes while
// the test reads it.
#pragma once

#include <sys/eventfd.h>
#include <unistd.h>

#include <chrono>
#include <mutex>
#include <ostream>
#include <streambuf>
#include <string>
#include <thread>

#include "channel/tcp_socket.h"
#include "session/server.h"

namespace rdmabench::testing {

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
inline bool log_shows(SharedLog& log, const std::string& wanted, std::chrono::seconds limit) {
  const auto give_up = std::chrono::steady_clock::now() + limit;
  while (log.text().find(wanted) == std::string::npos) {
    if (std::chrono::steady_clock::now() > give_up) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
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
            serve_clients(listener, options, server_details(options), stop_fd_, log);
          } catch (const std::exception& e) {
            ended_ = e.what();
          }
        }) {}
  ~ServerThread() {
    stop();
    if (thread_.joinable()) thread_.join();
    close(stop_fd_);
  }
  // Tells serve_clients to stop (as SIGTERM does).
  void stop() {
    const uint64_t one = 1;
    (void)!write(stop_fd_, &one, sizeof(one));
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

}  // namespace rdmabench::testing
