// Text from outside (a command-line value, a peer's message) made safe for a terminal or a
// log: the bytes it must not show raw become \xNN.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rdmabench {

enum class Keep {
  kUtf8,            // control characters escaped, newlines and tabs and UTF-8 kept (messages)
  kPrintableAscii,  // everything but printable ASCII escaped (a peer's raw bytes)
};

std::string printable(std::string_view text, Keep keep = Keep::kUtf8,
                      std::size_t limit = std::string_view::npos);

}  // namespace rdmabench
