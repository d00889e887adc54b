// Messages per QP per timed run at a point: --iters, but no more than kBytesPerRun of payload
// over all its QPs (and no fewer than kFewestIterations), so that a 1 MiB point, or 16 QPs at
// 64 KiB, costs the search what one QP at 64 KiB does rather than sixteen times as much. The
// command a finding prints says what was used.
#pragma once

#include <cstdint>

#include "search/search_space.h"

namespace rdmabench {

inline constexpr uint64_t kBytesPerRun = uint64_t{64} << 20;
inline constexpr uint64_t kFewestIterations = 64;

uint64_t iterations_at(const Point& point, uint64_t iterations);

}  // namespace rdmabench
