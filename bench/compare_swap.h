// Atomic compare-and-swap on the peer's 8-byte counter (ib_atomic_bw/lat -A CMP_AND_SWAP).
// bw: a window of outstanding atomics (the QP caps them in flight at --outs); lat: one at a
// time, the full round trip. The target stays passive. --verify: each compare is with what the
// counter must hold by the chain, so every one succeeds and a failed one is caught; the counter,
// read back, must hold the chain's last value (datapath/atomic_operands.h).
#pragma once

#include "bench/atomic_round_trips.h"

namespace rdmabench {

class CompareSwapPattern final : public AtomicPattern<CompareSwapPattern> {
 public:
  static constexpr PatternInfo kInfo = atomic_pattern_info(
      "compare_swap",
      "ATOMIC CMP_AND_SWP, chained, on the peer's 8-byte counter (ib_atomic_bw/lat)",
      IBV_WR_ATOMIC_CMP_AND_SWP);
};

}  // namespace rdmabench
