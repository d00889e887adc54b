// Sizes as messages show them.
#pragma once

#include <cstdint>
#include <string>

namespace rdmabench {

// "72 MiB": whole mebibytes, rounded up (a limit's message never shows less than was asked).
inline std::string mib_text(uint64_t bytes) {
  return std::to_string((bytes + (uint64_t{1} << 20) - 1) >> 20) + " MiB";
}

}  // namespace rdmabench
