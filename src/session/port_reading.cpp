#include "session/port_reading.h"

namespace rdmabench {

PortPlace port_place_of(Endpoint& endpoint) {
  const PathInUse path = endpoint.path_in_use();
  const GidEntry gid = endpoint.context().query_gid(path.port, path.gid_index);
  return {path.device, path.port, gid.netdev};
}

bool peer_on_this_port(const Context& context, uint8_t port, const PathInUse& peer) {
  return names_this_port(peer.gid, context.query_gids(port));
}

PortReading::PortReading(const std::optional<PortCounters>& port, bool wanted)
    : port_(wanted && port ? &*port : nullptr) {
  if (port_ != nullptr) before_ = port_->read();
}

std::map<std::string, uint64_t> PortReading::deltas() const {
  return port_ != nullptr ? counter_deltas(before_, port_->read()) : CounterSnapshot{};
}

}  // namespace rdmabench
