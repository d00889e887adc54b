#include "control/port_reading.h"

namespace rdmabench {

PortPlace port_place_of(Endpoint& endpoint) {
  const nlohmann::json path = endpoint.path_in_use();
  const auto port = path.at("port").get<uint32_t>();
  const GidEntry gid = endpoint.context().query_gid(static_cast<uint8_t>(port),
                                                    path.at("gid_index").get<uint32_t>());
  return {endpoint.context().device_name(), port, gid.netdev};
}

PortReading::PortReading(const std::optional<PortCounters>& port, bool wanted)
    : port_(wanted && port ? &*port : nullptr) {
  if (port_ != nullptr) before_ = port_->read();
}

std::map<std::string, uint64_t> PortReading::deltas() const {
  return port_ != nullptr ? counter_deltas(before_, port_->read()) : CounterSnapshot{};
}

}  // namespace rdmabench
