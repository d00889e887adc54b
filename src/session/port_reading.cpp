#include "session/port_reading.h"

namespace rdmabench {

PortPlace port_place_of(Endpoint& endpoint) {
  const PathInUse path = endpoint.path_in_use();
  const GidEntry gid = endpoint.context().query_gid(path.port, path.gid_index);
  return {path.device, path.port, gid.netdev};
}

bool peer_on_this_port(Endpoint& endpoint, const PathInUse& peer) {
  const uint8_t port = endpoint.path_in_use().port;
  std::vector<GidEntry> gids = endpoint.context().query_gids();
  std::erase_if(gids, [&](const GidEntry& g) { return g.port != port; });
  return names_this_port(peer.gid, gids);
}

PortReading::PortReading(const std::optional<PortCounters>& port, bool wanted)
    : port_(wanted && port ? &*port : nullptr) {
  if (port_ != nullptr) before_ = port_->read();
}

std::map<std::string, uint64_t> PortReading::deltas() const {
  return port_ != nullptr ? counter_deltas(before_, port_->read()) : CounterSnapshot{};
}

}  // namespace rdmabench
