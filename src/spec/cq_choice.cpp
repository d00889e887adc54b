#include "spec/cq_choice.h"

namespace rdmabench {

std::string CqStrategy::text() const {
  std::string out = name;
  for (size_t i = 0; i < arguments.size(); ++i) {
    out += i == 0 ? ':' : ',';
    out += std::to_string(arguments[i]);
  }
  return out;
}

std::string CqChoice::text() const {
  if (client == server) return client.text();
  return "client=" + client.text() + ",server=" + server.text();
}

}  // namespace rdmabench
