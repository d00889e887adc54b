// Where --validate's write bw keeps its checks (TestSpec::checks_landed_writes): a plain RDMA
// write makes no completion at its target, so the target (the server) keeps a ring of
// --rx-depth slots a stream, each filled beforehand with the pattern's complement; message n of
// a run (from 1) is written to slot (n - 1) mod slots, and the target checks each slot as its
// message lands, writes the complement back and counts it in a word of its buffer. The sender
// reads that count by RDMA read (write_credit.h) and never writes into a slot not yet checked;
// after its last write it reads the count until every write is checked (bw_lane.h).
// Both sides compute the layout from the spec alone: the peer's buffer is laid out as ours.
#pragma once

#include <cstdint>

#include "spec/test_spec.h"

namespace rdmabench {

// The target's ring: one slot a receive it would have posted.
inline uint64_t checked_write_slots(const TestSpec& spec) {
  return spec.rx_depth;
}

// Where the checked count lives, from the start of a buffer of `slots_in_buffer` slots of
// `stride` bytes: after them, 8-byte aligned. (A sender keeps its copy of the count, which its
// reads land in, at the same place in its own buffer.)
inline uint64_t checked_count_offset(uint64_t stride, uint64_t slots_in_buffer) {
  return (stride * slots_in_buffer + 7) & ~uint64_t{7};
}

// The peer target's addresses, from the address of its first ring slot (what the bootstrap
// says of its buffer, RemoteBuffer::address): slot k, and its checked count.
struct CheckedWriteRing {
  uint64_t first_slot = 0;  // the peer's ring slot 0
  uint64_t stride = 0;      // bytes from one slot to the next (the message and header room)
  uint64_t header = 0;      // the transport's receive header room ahead of each slot
  uint64_t slots = 0;

  static CheckedWriteRing of(const TestSpec& spec, uint64_t first_slot) {
    const uint64_t header = spec.transport->receive_header_bytes;
    return {first_slot, spec.size + header, header, checked_write_slots(spec)};
  }
  // Where message `n` of a run (from 1) is written.
  uint64_t slot_address(uint64_t n) const { return first_slot + (n - 1) % slots * stride; }
  // The target's buffer starts a slot (its send slot) and a header before its ring.
  uint64_t count_address() const {
    return first_slot - stride - header + checked_count_offset(stride, 1 + slots);
  }
};

}  // namespace rdmabench
