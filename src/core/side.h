// The two ends of every benchmark: the client that asks for runs and the server that answers.
#pragma once

#include <string>

namespace rdmabench {

enum class Side { kClient, kServer };

inline std::string to_string(Side side) {  // "client", "server"
  return side == Side::kClient ? "client" : "server";
}

}  // namespace rdmabench
