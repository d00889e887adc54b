// The names a device counter may have in a result row: 1 to 64 of [a-z0-9_]. Port counters
// come from sysfs on this host and, in a "done" message, from the server: a name that is not
// plain is never used (a server's is refused).
#pragma once

#include <string_view>

namespace rdmabench {

inline bool valid_counter_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

}  // namespace rdmabench
