#include "control/busy_responder.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <nlohmann/json.hpp>
#include <optional>

#include "control/control_channel.h"
#include "control/control_messages.h"
#include "core/system_error.h"
#include "core/wait_readable.h"

namespace rdmabench {

namespace {
constexpr std::chrono::milliseconds kRetryPause{100};
constexpr std::chrono::milliseconds kSendWait{2000};
}  // namespace

BusyResponder::BusyResponder(TcpSocket& listener, std::string since, const AddressAllowList& allow,
                             std::chrono::milliseconds hello_wait)
    : listener_(listener),
      since_(std::move(since)),
      hello_wait_(hello_wait),
      allow_(allow),
      stop_fd_(eventfd(0, EFD_CLOEXEC)) {
  check_system(stop_fd_ < 0 ? -1 : 0, "eventfd", {}, ExitCode::kNoDevice);
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
  const nlohmann::json busy = busy_message(since_);
  for (;;) {
    std::optional<TcpSocket> client;
    try {
      client = listener_.accept(stop_fd_);
    } catch (const std::exception&) {
      // accept itself failed (out of descriptors, ...): pause instead of spinning on it,
      // still ready to stop.
      if (wait_readable(stop_fd_, kRetryPause, "poll(busy responder stop)")) return;
      continue;
    }
    if (!client) return;
    try {
      const std::string peer = client->peer_address();
      if (allow_.allows(peer)) {
        // Its hello first: what a client sends before it reads the answer.
        try {
          client->receive_line(hello_wait_, stop_fd_);
        } catch (const Error&) {
        }
        tell_and_finish(*client, busy, kSendWait);
      } else {
        tell_and_finish(*client, refusal_message(peer), kSendWait);  // nothing of it read
      }
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
