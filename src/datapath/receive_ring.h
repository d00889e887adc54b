// Where a bandwidth receiver's receives land: how many slots its ring holds.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/saturating.h"
#include "spec/test_spec.h"

namespace rdmabench {

// The bytes of one receive slot: the transport's receive header room and a message.
inline uint64_t receive_slot_bytes(const TestSpec& spec) {
  return saturating_add(spec.size, spec.transport->receive_header_bytes);
}

// The slots (each receive_slot_bytes) that a bw receiver keeping spec.rx_depth receives posted
// lands them in, given at most `ring_bytes`:
// - --validate: one a receive posted, whatever the budget: nothing lands over a message before
//   the timed run checks it;
// - --verify: as many as the budget holds, at most one a receive posted: the check run checks
//   each receive as it completes;
// - otherwise one: nothing reads a timed run's receives, so they all land in one slot, as
//   perftest's all land in its one-page cycle buffer (a slot each gave the receiver a footprint
//   of rx_depth messages, 2 MiB at 4 KiB, that perftest's has not).
inline uint32_t receive_ring_slots(const TestSpec& spec, uint64_t ring_bytes) {
  if (spec.validate) return spec.rx_depth;
  if (!spec.verify) return 1;
  return static_cast<uint32_t>(std::clamp<uint64_t>(
      ring_bytes / std::max<uint64_t>(receive_slot_bytes(spec), 1), 1, spec.rx_depth));
}

}  // namespace rdmabench
