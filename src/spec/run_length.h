// How long one run goes: a number of messages per stream, or a timed window.
#pragma once

#include <cstdint>

namespace rdmabench {

// `iterations` messages per stream, or with a duration margin + duration + margin, counting
// only what completes inside the middle window (perftest's -D with its margins).
struct RunLength {
  uint64_t iterations = 0;
  uint64_t duration_ns = 0;  // 0: by iterations
  uint64_t margin_ns = 0;
  bool timed_window() const noexcept { return duration_ns > 0; }
};

}  // namespace rdmabench
