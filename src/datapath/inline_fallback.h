// Asking a QP for inline room the device may not have: a device says nothing of its inline
// limit but a refusal (EINVAL) at creation, so the QP is asked again for less until one is
// granted, and the granted room is what the QP reports (QueuePair::max_inline_data).
#pragma once

#include <cerrno>
#include <cstdint>
#include <vector>

#include "verbs/verbs_error.h"

namespace rdmabench {

// The inline sizes to ask for, in turn: `wanted`, each lower power of two, then 0.
inline std::vector<uint32_t> inline_requests(uint32_t wanted) {
  std::vector<uint32_t> tries{wanted};
  for (uint32_t p = 1u << 31; p > 0; p >>= 1)
    if (p < tries.back()) tries.push_back(p);
  if (tries.back() != 0) tries.push_back(0);
  return tries;
}

// `create(n)` makes the QP with n inline bytes, or throws VerbsError(EINVAL) when the device
// refuses them; any other error, or a refusal of 0, ends the search.
template <typename Create>
auto create_with_inline_fallback(uint32_t wanted, Create&& create) -> decltype(create(0u)) {
  const std::vector<uint32_t> tries = inline_requests(wanted);
  for (size_t i = 0;; ++i) {
    try {
      return create(tries[i]);
    } catch (const VerbsError& e) {
      if (e.error_number() != EINVAL || i + 1 == tries.size()) throw;
    }
  }
}

}  // namespace rdmabench
