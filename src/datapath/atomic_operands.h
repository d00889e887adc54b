// What the atomic patterns (fetch_add, compare_swap) do to the peer's counter, and what each
// fetched value must be. Every stream owns one 8-byte counter at its peer (the peer's
// target(0)), which starts at 0 and is touched by nothing but this stream's atomics, which an
// RC QP executes in order. So after n atomics it holds atomic_counter_after(n), and atomic
// number n fetches exactly that:
// - fetch_add adds 1: n;
// - compare_swap chains: atomic n compares with n x kChainStep and swaps in (n + 1) x
//   kChainStep, so each one succeeds, and a compare that fails (the counter was not what the
//   chain says) fetches a value other than the one it compared with and is counted.
// Atomic n's old value lands in its own slot, target(1 + n % tx_depth): a slot is reused only
// after the completion that covers it has been taken and checked. A device keeps the counter in
// its own byte order (rxe the host's, some HCAs big-endian); 0, where it starts, reads the same
// in both, and a fetched value is read in either.
#pragma once

#include <infiniband/verbs.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "verbs/work_request.h"

namespace rdmabench {

inline constexpr uint64_t kAtomicOperandBytes = 8;

// compare_swap's step: odd, so chain(n) differs from chain(m) for every n != m below 2^64.
inline constexpr uint64_t kChainStep = 0x9e3779b97f4a7c15ull;

// What the counter holds after `n` atomics of `opcode`; atomic n fetches this.
inline uint64_t atomic_counter_after(ibv_wr_opcode opcode, uint64_t n) noexcept {
  return n * (opcode == IBV_WR_ATOMIC_CMP_AND_SWP ? kChainStep : 1);
}

// Where atomic number `n` of the stream lands its fetched value.
template <typename Stream>
uint8_t* fetch_slot(Stream& s, uint64_t n) {
  return s.target(1 + n % s.spec().tx_depth);
}

// A stream's fetch slots in the order its atomics take them: fetch_slot of each, read from a
// table made before the run rather than worked out with two divisions a message.
class FetchSlots {
 public:
  FetchSlots() = default;  // a stream without atomics
  template <typename Stream>
  explicit FetchSlots(Stream& s) {
    for (uint64_t i = 0; i < s.spec().tx_depth; ++i) slots_.push_back(fetch_slot(s, i));
  }
  // From here on, next() gives atomic number `n`'s slot, then n + 1's, and so on.
  void seek(uint64_t n) noexcept { index_ = n % slots_.size(); }
  uint8_t* next() noexcept {
    uint8_t* slot = slots_[index_];
    if (++index_ == slots_.size()) index_ = 0;
    return slot;
  }

 private:
  std::vector<uint8_t*> slots_;
  size_t index_ = 0;
};

// Sets the operands of the stream's atomic number `n` in `wr`, and `slot` (fetch_slot(s, n))
// as where it lands. Testing only (--debug-corrupt, in check runs): from the post the stream's
// corrupt_from names, the operand is wrong (fetch_add adds 2, compare_swap compares with the
// wrong value).
template <typename Stream>
[[gnu::always_inline]] inline void set_atomic_operands(Stream& s, ibv_send_wr& wr, uint64_t n,
                                                       uint8_t* slot) {
  wr.sg_list->addr = reinterpret_cast<uintptr_t>(slot);
  const uint64_t wrong = s.posted == s.corrupt_from() ? 1 : 0;
  if (wr.opcode == IBV_WR_ATOMIC_CMP_AND_SWP) {
    wr.wr.atomic.compare_add = atomic_counter_after(wr.opcode, n) + wrong;
    wr.wr.atomic.swap = atomic_counter_after(wr.opcode, n + 1);
  } else {
    wr.wr.atomic.compare_add = 1 + wrong;
  }
}

// Do the 8 bytes at `bytes` hold `value`, in the host's byte order or the other?
inline bool holds_value(const uint8_t* bytes, uint64_t value) noexcept {
  uint64_t held = 0;
  std::memcpy(&held, bytes, sizeof held);
  return held == value || __builtin_bswap64(held) == value;
}

// 1 when atomic number `n` fetched anything but what the counter held before it, else 0.
template <typename Stream>
uint64_t count_wrong_fetch(Stream& s, ibv_wr_opcode opcode, uint64_t n) {
  return holds_value(fetch_slot(s, n), atomic_counter_after(opcode, n)) ? 0 : 1;
}

}  // namespace rdmabench
