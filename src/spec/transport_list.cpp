// The registered transports: one line each, the default first.
#include "core/comma_list.h"
#include "spec/rc.h"
#include "spec/transport.h"
#include "spec/uc.h"
#include "spec/ud.h"

namespace rdmabench {

const std::vector<Transport>& registered_transports() {
  static const std::vector<Transport> all = {
      Transport(kRcTransport),
      Transport(kUcTransport),
      Transport(kUdTransport),
  };
  return all;
}

std::optional<Transport> parse_transport(const std::string& name) {
  return find_named(registered_transports(), name);
}

std::string transport_names() {
  return join_comma_list(registered_transports(), [](const Transport& t) { return t->name; });
}

Transport default_transport() {
  return registered_transports().front();
}

}  // namespace rdmabench
