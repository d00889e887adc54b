// Each side's port counters around a run (host/port_counters.h): where an endpoint's QPs go
// out, and a reading taken before a run that gives what moved once it is over. Both readings
// are outside every timed window: the client's before "run" and after "done"; the server's
// before "ready" and after the client's "finished".
#pragma once

#include <optional>

#include "datapath/endpoint.h"
#include "host/port_counters.h"

namespace rdmabench {

// The device, port and (RoCE) netdev of the endpoint's first QP's path.
PortPlace port_place_of(Endpoint& endpoint);

// Whether the peer's QPs go out of `port` of `context` too (one host, one device: rxe on lo),
// told by the GID of the peer's path (`peer`, as it reported it) being in that port's table:
// then each side's port counters count both sides' traffic.
bool peer_on_this_port(const Context& context, uint8_t port, const PathInUse& peer);

class PortReading {
 public:
  // Reads `port` now when `wanted`; does nothing else otherwise.
  PortReading(const std::optional<PortCounters>& port, bool wanted);
  // What moved since then (empty when not wanted).
  std::map<std::string, uint64_t> deltas() const;

 private:
  const PortCounters* port_ = nullptr;
  CounterSnapshot before_;
};

}  // namespace rdmabench
