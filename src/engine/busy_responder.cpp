#include "engine/busy_responder.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <nlohmann/json.hpp>

#include "verbs/error.h"

namespace rdmabench {

namespace {
constexpr std::chrono::milliseconds kHelloWait{2000};
}

BusyResponder::BusyResponder(TcpSocket& listener, std::string serving, std::string since)
    : listener_(listener),
      serving_(std::move(serving)),
      since_(std::move(since)),
      stop_fd_(eventfd(0, EFD_CLOEXEC)) {
  check_call(stop_fd_ < 0 ? -1 : 0, "eventfd");
  thread_ = std::thread([this] { answer_until_stopped(); });
}

BusyResponder::~BusyResponder() {
  const uint64_t one = 1;
  if (write(stop_fd_, &one, sizeof(one)) != sizeof(one)) {
    // An eventfd write of 1 cannot fail short of a bug; the thread would then block in accept.
  }
  thread_.join();
  close(stop_fd_);
}

void BusyResponder::answer_until_stopped() {
  const std::string busy =
      nlohmann::json{{"type", "busy"}, {"serving", serving_}, {"since", since_}}.dump() + "\n";
  for (;;) {
    try {
      auto client = listener_.accept(stop_fd_);
      if (!client) return;
      // Read the client's hello first: closing on unread data would reset the connection
      // before the client could read the answer.
      try {
        client->receive_line(kHelloWait, stop_fd_);
      } catch (const Error&) {
      }
      client->send_all(busy, kHelloWait);
    } catch (const std::exception&) {
      // One client's trouble (reset, timeout) is not the server's; keep answering.
    }
  }
}

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace rdmabench
