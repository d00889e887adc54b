// A spec as the command line makes it with no options: the defaults, and the pattern a user
// gets without --pattern (write). A spec leaves the pattern to its caller (the registry is a
// layer above the spec), so the tests choose it here.
#pragma once

#include <string>

#include "bench/pattern_catalogue.h"
#include "spec/test_spec.h"

namespace rdmabench {

inline TestSpec a_spec(const std::string& pattern = "write") {
  TestSpec s;
  s.pattern = parse_pattern(pattern).value();
  return s;
}

// A spec of `pattern` in `mode` at `size` on `qps` QPs over `threads` threads.
inline TestSpec a_spec(const std::string& pattern, Mode mode, uint64_t size, uint32_t qps,
                       uint32_t threads) {
  TestSpec s = a_spec(pattern);
  s.mode = mode;
  s.size = size;
  s.qps = qps;
  s.threads = threads;
  return s;
}

}  // namespace rdmabench
