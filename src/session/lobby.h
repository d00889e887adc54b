// Every connection before its client is in, on a thread of its own (the server's second, for
// as long as it serves): accepted at once, each with its own deadline from accept, advanced
// step by step (its first word, then the TLS handshake with a server that asks for a key or a
// certificate), never one waiting on another. A client that is in is handed to the session
// loop when the server is free and told "busy" (over its TLS) when not; a client of the wrong
// kind, or from an address --allow refuses, is told why and closed; one silent or stalled past
// its deadline is dropped. One address holds at most kMostPendingPerAddress connections and
// all together at most kMostPending: a new one pushes out the oldest. So no number of silent or
// half-open connections keeps a client with the key out: it is in within --timeout, and served
// once the current session ends.
#pragma once

#include <chrono>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <thread>

#include "channel/address_allow_list.h"
#include "channel/tcp_socket.h"
#include "channel/tls_context.h"
#include "channel/tls_stream.h"

namespace rdmabench {

inline constexpr size_t kMostPendingPerAddress = 8;
inline constexpr size_t kMostPending = 64;

// A client that is in: its connection, and its TLS session where the server asks for one.
struct AdmittedClient {
  TcpSocket socket;
  std::optional<TlsStream> tls;
  std::string peer;
};

class Lobby {
 public:
  struct Rules {
    const AddressAllowList* allow = nullptr;   // none: every address
    const TlsContext* tls = nullptr;           // none: the channel in clear
    std::chrono::milliseconds deadline{5000};  // from accept until the client is in (--timeout)
  };

  // Starts taking connections on `listener`, which the caller must not use until this is
  // destroyed; logs on `log` (an osyncstream's line at a time: the session writes there too).
  Lobby(TcpSocket& listener, Rules rules, std::ostream& log);
  ~Lobby();  // stops the thread; closes every connection still pending
  Lobby(const Lobby&) = delete;
  Lobby& operator=(const Lobby&) = delete;

  // The server is free: the next client that is in (clients that come in meanwhile are told
  // "busy" until the next call). nullopt when `stop_fd` became readable first. Rethrows the
  // failure that ended the lobby (a listening socket that is broken itself).
  std::optional<AdmittedClient> next(int stop_fd);
  // The session is over (its client not yet told how): the next client that is in is the
  // session loop's, not told "busy".
  void session_over();

 private:
  void run() noexcept;

  TcpSocket& listener_;
  Rules rules_;
  std::ostream& log_;
  int wake_fd_;  // an eventfd: a client is ready, or the lobby failed (the session loop waits)
  int stop_fd_;  // an eventfd: written to stop the thread
  std::mutex mutex_;
  // The session loop takes the next client that is in: from the start (a client in before
  // next() is first called waits for it), and again from session_over() or next().
  bool free_ = true;
  std::optional<AdmittedClient> ready_;
  std::string since_;  // when the session being served began (the busy answer says)
  std::exception_ptr failure_;
  std::thread thread_;
};

}  // namespace rdmabench
