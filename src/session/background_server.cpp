#include "session/background_server.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdint>

#include "core/system_error.h"

namespace rdmabench {

BackgroundServer::BackgroundServer(ServerOptions options, std::ostream& log)
    : options_(std::move(options)),
      details_(server_details(options_)),
      log_(log),
      listener_(TcpSocket::listen(options_.port)),
      stop_fd_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
  if (stop_fd_ < 0) throw SystemError("eventfd", errno, {}, ExitCode::kNoDevice);
  thread_ = std::jthread([this] {
    try {
      serve_clients(listener_, options_, details_, stop_fd_, log_);
    } catch (const std::exception& e) {
      log_ << "server on port " << options_.port << " failed: " << e.what() << "\n" << std::flush;
    }
  });
}

BackgroundServer::~BackgroundServer() {
  const uint64_t one = 1;
  (void)!write(stop_fd_, &one, sizeof(one));
  thread_.join();
  close(stop_fd_);
}

}  // namespace rdmabench
