// While the server measures for one client, answers every other client that connects, at
// once and from its own thread: {"type":"busy","serving":"another client","since":T} (who it
// is is not told: the asker has proved nothing yet). Measurements never overlap, and nobody
// waits in the listen backlog without being told why.
#pragma once

#include <chrono>
#include <string>
#include <thread>

#include "control/address_allow_list.h"
#include "control/tcp_socket.h"

namespace rdmabench {

class BusyResponder {
 public:
  // Starts answering on `listener`, which the caller must not use until this is destroyed.
  // A client whose address `allow` refuses is told so instead, before anything it sent is
  // read. `hello_wait`: how long an allowed client has to say hello before it is answered.
  BusyResponder(TcpSocket& listener, std::string since, const AddressAllowList& allow,
                std::chrono::milliseconds hello_wait = std::chrono::milliseconds(2000));
  ~BusyResponder();  // stops answering (returns once the thread has finished)
  BusyResponder(const BusyResponder&) = delete;
  BusyResponder& operator=(const BusyResponder&) = delete;

 private:
  void answer_until_stopped();

  TcpSocket& listener_;
  const std::string since_;
  const std::chrono::milliseconds hello_wait_;
  const AddressAllowList& allow_;
  int stop_fd_;  // an eventfd: written to stop the thread
  std::thread thread_;
};

// Now, as an ISO 8601 UTC time: 2026-11-22T03:10:02Z.
std::string utc_now_iso8601();

}  // namespace rdmabench
