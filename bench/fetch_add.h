// Atomic fetch-and-add of 1 on the peer's 8-byte counter (ib_atomic_bw/lat -A FETCH_AND_ADD).
// bw: a window of outstanding atomics (the QP caps them in flight at --outs); lat: one at a
// time, the full round trip. The target stays passive. --verify: every fetched value is the
// count of atomics before it, and the counter, read back, the count of all of them
// (datapath/atomic_operands.h).
#pragma once

#include "bench/atomic_round_trips.h"

namespace rdmabench {

class FetchAddPattern final : public AtomicPattern<FetchAddPattern> {
 public:
  static constexpr PatternInfo kInfo = atomic_pattern_info(
      "fetch_add", "ATOMIC FETCH_AND_ADD of 1 on the peer's 8-byte counter (ib_atomic_bw/lat)",
      IBV_WR_ATOMIC_FETCH_AND_ADD);
};

}  // namespace rdmabench
