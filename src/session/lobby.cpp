#include "session/lobby.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <list>
#include <vector>

#include "channel/refusal_log.h"
#include "channel/socket_error.h"
#include "core/printable_text.h"
#include "core/system_error.h"
#include "core/utc_now.h"
#include "core/wait_readable.h"
#include "messages/control_channel.h"
#include "messages/control_messages.h"

namespace rdmabench {

namespace {

using Clock = std::chrono::steady_clock;

// How often a lobby whose accept fails tries again; how long a connection being closed has
// for what it was told to arrive (what it still sends is read and dropped meanwhile).
constexpr std::chrono::milliseconds kAcceptRetry{100};
constexpr std::chrono::milliseconds kLingerAfterTelling{200};
constexpr size_t kDiscardLimit = size_t{64} * 1024;

// One connection in the lobby.
struct Pending {
  enum class Stage { kFirstWord, kHandshake, kClosing };
  TcpSocket socket;
  std::string peer;
  Clock::time_point deadline;
  Stage stage = Stage::kFirstWord;
  std::optional<TlsStream> tls;
  short events = POLLIN;
  size_t discarded = 0;  // kClosing: bytes read and dropped
};

void wake(int fd) {
  const uint64_t one = 1;
  (void)!write(fd, &one, sizeof(one));
}

// What a client of the wrong kind is told (exit 4).
std::string wrong_kind(const TlsContext* tls, bool speaks_tls) {
  if (speaks_tls)
    return "this server asks for no key or certificate (serve without --key and --cert): leave "
           "them out of the client, or serve with them";
  return tls->uses_certificates()
             ? "this server asks for a certificate (serve --cert): give --cert FILE --cert-key "
               "FILE --ca FILE, signed by the server's --ca"
             : "this server asks for a key (serve --key): give --key FILE, a copy of the "
               "server's key file";
}

// The lobby's work on its thread: the connections, their logs, and the session loop's hand.
class LobbyLoop {
 public:
  LobbyLoop(TcpSocket& listener, const Lobby::Rules& rules, std::ostream& log,
            std::function<bool(AdmittedClient&)> hand_over, std::function<std::string()> since)
      : listener_(listener),
        rules_(rules),
        log_(log),
        refusals_(log, rules.allow ? "not in --allow " + rules.allow->text() : "not allowed"),
        failures_(log, "did not get in (no key or certificate this server takes?)"),
        hand_over_(std::move(hand_over)),
        since_(std::move(since)) {}

  // Until `stop_fd` is readable; throws when the listening socket itself is broken.
  void run(int stop_fd) {
    for (;;) {
      const auto now = Clock::now();
      refusals_.tick(now);
      failures_.tick(now);
      expire(now);
      std::vector<pollfd> fds = {{stop_fd, POLLIN, 0}, {listener_.fd(), POLLIN, 0}};
      const bool accepting = now >= accept_again_;
      if (!accepting) fds[1].fd = -1;
      for (const Pending& p : pending_) fds.push_back({p.socket.fd(), p.events, 0});
      if (poll(fds.data(), fds.size(), poll_timeout_ms(next_due(now))) < 0 && errno != EINTR)
        throw SocketError("poll(lobby)", errno);
      if (fds[0].revents & POLLIN) return;
      auto it = pending_.begin();
      for (size_t i = 2; i < fds.size(); ++i, ++it)
        if (fds[i].revents != 0) advance(it);
      std::erase_if(pending_, [](const Pending& p) { return p.socket.fd() < 0; });
      if (accepting && (fds[1].revents & POLLIN)) take_connection();
    }
  }

 private:
  // The earliest of a pending connection's deadline, the next accept and the end of a log's
  // open window; nullopt when nothing is due (the lobby then waits for a connection or stop
  // alone: an idle server's thread does not wake beside a run).
  std::optional<Clock::time_point> next_due(Clock::time_point now) const {
    std::optional<Clock::time_point> due;
    const auto consider = [&due](std::optional<Clock::time_point> t) {
      if (t && (!due || *t < *due)) due = t;
    };
    for (const Pending& p : pending_) consider(p.deadline);
    if (accept_again_ > now) consider(accept_again_);
    consider(refusals_.window_end());
    consider(failures_.window_end());
    return due;
  }

  void take_connection() {
    std::optional<TcpSocket> client;
    try {
      client = listener_.accept(-1);
      if (accept_failing_) log_ << "rdmabench serve: accept works again\n" << std::flush;
      accept_failing_ = false;
    } catch (const SocketError& e) {
      if (accept_failure_is_lasting(e.error_number())) throw;
      if (!accept_failing_)
        log_ << "rdmabench serve: " << e.what() << "; trying again every " << kAcceptRetry.count()
             << " ms\n"
             << std::flush;
      accept_failing_ = true;
      accept_again_ = Clock::now() + kAcceptRetry;
      return;
    }
    if (!client) return;
    Pending p{.socket = std::move(*client),
              .peer = {},
              .deadline = Clock::now() + rules_.deadline,
              .tls = std::nullopt};
    p.peer = p.socket.peer_address();
    make_room_for(p.peer);
    if (rules_.allow && !rules_.allow->allows(p.peer)) {
      refusals_.refused(p.peer, Clock::now());
      close_telling(p, refusal_message(p.peer));  // nothing it sent is read
    }
    pending_.push_back(std::move(p));
  }

  // At most kMostPendingPerAddress from one address and kMostPending in all: the oldest of
  // that address, else the oldest of all, is dropped for a new one (those being closed first:
  // they were told already).
  void make_room_for(const std::string& peer) {
    const auto from_peer = [&](const Pending& p) { return p.peer == peer; };
    if (static_cast<size_t>(std::count_if(pending_.begin(), pending_.end(), from_peer)) >=
        kMostPendingPerAddress)
      drop(std::find_if(pending_.begin(), pending_.end(), from_peer),
           "its address holds " + std::to_string(kMostPendingPerAddress) +
               " connections not yet in; the oldest went");
    if (pending_.size() >= kMostPending)
      drop(pending_.begin(),
           std::to_string(kMostPending) + " connections not yet in; the oldest went for a new one");
  }

  void drop(std::list<Pending>::iterator it, const std::string& why) {
    if (it->stage != Pending::Stage::kClosing) failures_.refused(it->peer, Clock::now(), why);
    pending_.erase(it);
  }

  // Past their deadline: dropped, and logged unless they were being closed anyway.
  void expire(Clock::time_point now) {
    for (auto it = pending_.begin(); it != pending_.end();) {
      if (it->deadline > now) {
        ++it;
        continue;
      }
      if (it->stage != Pending::Stage::kClosing)
        failures_.refused(it->peer, now,
                          std::string(it->stage == Pending::Stage::kFirstWord
                                          ? "said nothing"
                                          : "did not finish the TLS handshake") +
                              " within " + std::to_string(rules_.deadline.count()) +
                              " ms (--timeout)");
      it = pending_.erase(it);
    }
  }

  void advance(std::list<Pending>::iterator it) {
    Pending& p = *it;
    try {
      if (p.stage == Pending::Stage::kClosing) return discard(p);
      if (p.stage == Pending::Stage::kFirstWord) {
        const bool speaks_tls =
            peer_first_word(p.socket, std::chrono::milliseconds(0), -1) == FirstWord::kTls;
        if (speaks_tls != (rules_.tls != nullptr)) {
          const std::string why = wrong_kind(rules_.tls, speaks_tls);
          failures_.refused(p.peer, Clock::now(), why);
          return close_telling(p, error_message(static_cast<int>(ExitCode::kConnection), why));
        }
        if (!speaks_tls) return admit(p);
        p.tls.emplace(TlsStream::begin_accept(p.socket, *rules_.tls));
        p.stage = Pending::Stage::kHandshake;
      }
      const TlsStream::Progress progress = p.tls->step_accept();
      if (progress == TlsStream::Progress::kDone) return admit(p);
      p.events = progress == TlsStream::Progress::kWantRead ? POLLIN : POLLOUT;
    } catch (const Error& e) {
      failures_.refused(p.peer, Clock::now(), peer_excerpt(e.what(), 300));
      p.socket = TcpSocket();  // closed; erased by the loop
    }
  }

  // In: the session loop's, when it is free; told "busy" else.
  void admit(Pending& p) {
    AdmittedClient client{std::move(p.socket), std::move(p.tls), p.peer};
    if (hand_over_(client)) return;  // p.socket is closed: erased by the loop
    p.socket = std::move(client.socket);
    p.tls = std::move(client.tls);
    close_telling(p, busy_message(since_()));
  }

  // Sends `message` (over its TLS, if up) and ends this side's sending; the connection stays
  // for kLingerAfterTelling, what the client still sends read and dropped, so it hears what it was
  // told instead of a reset.
  void close_telling(Pending& p, const nlohmann::json& message) {
    const std::string line = message.dump() + "\n";
    if (p.tls) {
      (void)p.tls->try_send(line);
      p.tls->close_notify();
    } else {
      (void)!::send(p.socket.fd(), line.data(), line.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    }
    ::shutdown(p.socket.fd(), SHUT_WR);
    p.stage = Pending::Stage::kClosing;
    p.events = POLLIN;
    p.deadline = Clock::now() + kLingerAfterTelling;
  }

  void discard(Pending& p) {
    char buf[4096];
    const ssize_t n = ::recv(p.socket.fd(), buf, sizeof(buf), MSG_DONTWAIT);
    if (n > 0) p.discarded += static_cast<size_t>(n);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) || p.discarded >= kDiscardLimit) {
      p.tls.reset();
      p.socket = TcpSocket();
    }
  }

  TcpSocket& listener_;
  const Lobby::Rules& rules_;
  std::ostream& log_;
  RefusalLog refusals_;  // --allow
  RefusalLog failures_;  // the wrong kind, a failed handshake, silent, pushed out
  std::function<bool(AdmittedClient&)> hand_over_;
  std::function<std::string()> since_;
  std::list<Pending> pending_;
  bool accept_failing_ = false;
  Clock::time_point accept_again_{};
};

int new_eventfd() {
  const int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  check_system(fd < 0 ? -1 : 0, "eventfd", {}, ExitCode::kNoDevice);
  return fd;
}

}  // namespace

Lobby::Lobby(TcpSocket& listener, Rules rules, std::ostream& log)
    : listener_(listener), rules_(rules), log_(log), wake_fd_(new_eventfd()) {
  try {
    stop_fd_ = new_eventfd();
  } catch (...) {
    close(wake_fd_);
    throw;
  }
  thread_ = std::thread([this] { run(); });
}

Lobby::~Lobby() {
  wake(stop_fd_);
  thread_.join();
  close(stop_fd_);
  close(wake_fd_);
}

void Lobby::run() noexcept {
  const auto hand_over = [this](AdmittedClient& client) {
    const std::lock_guard lock(mutex_);
    if (!free_ || ready_) return false;
    ready_.emplace(std::move(client));
    wake(wake_fd_);
    return true;
  };
  const auto since = [this] {
    const std::lock_guard lock(mutex_);
    return since_;
  };
  try {
    LobbyLoop(listener_, rules_, log_, hand_over, since).run(stop_fd_);
  } catch (...) {
    const std::lock_guard lock(mutex_);
    failure_ = std::current_exception();
    wake(wake_fd_);
  }
}

std::optional<AdmittedClient> Lobby::next(int stop_fd) {
  {
    const std::lock_guard lock(mutex_);
    free_ = true;
  }
  for (;;) {
    pollfd fds[2] = {{wake_fd_, POLLIN, 0}, {stop_fd, POLLIN, 0}};
    if (poll(fds, stop_fd >= 0 ? 2 : 1, -1) < 0 && errno != EINTR)
      throw SocketError("poll(lobby)", errno);
    uint64_t count = 0;
    (void)!read(wake_fd_, &count, sizeof(count));
    const std::lock_guard lock(mutex_);
    if (failure_) std::rethrow_exception(failure_);
    if (ready_) {
      free_ = false;
      since_ = utc_now_iso8601();
      std::optional<AdmittedClient> client = std::move(ready_);
      ready_.reset();
      return client;
    }
    if (stop_fd >= 0 && (fds[1].revents & POLLIN)) {
      free_ = false;
      return std::nullopt;
    }
  }
}

void Lobby::session_over() {
  const std::lock_guard lock(mutex_);
  free_ = true;
}

}  // namespace rdmabench
