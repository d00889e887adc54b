// The registered transports: one line each, the default first.
#include "verbs/rc.h"
#include "verbs/transport.h"

namespace rdmabench {

const std::vector<Transport>& registered_transports() {
  static const std::vector<Transport> all = {
      Transport(kRcTransport),
  };
  return all;
}

std::optional<Transport> parse_transport(const std::string& name) {
  for (const Transport& t : registered_transports())
    if (t->name == name) return t;
  return std::nullopt;
}

std::string transport_names() {
  std::string all;
  for (const Transport& t : registered_transports()) {
    if (!all.empty()) all += ", ";
    all += t->name;
  }
  return all;
}

Transport default_transport() {
  return registered_transports().front();
}

}  // namespace rdmabench
