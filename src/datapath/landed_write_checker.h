// The target's check of one stream's writes under --validate's write bw (checked_write_ring.h):
// the slot of the next message is watched until its last byte is no longer the complement the
// slot was left holding; the slot is then compared with the pattern (re-read for a short while
// before a mismatch is called damage: a device may place a message's bytes in any order),
// written back to the complement (a write that never comes then shows as a slot that never
// turns), and the count of checked messages is published in the word the sender reads.
// Works on plain memory: tests/unit/landed_write_checker_test.cpp drives it without a device.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "core/clock.h"
#include "datapath/payload.h"

namespace rdmabench {

// How long a slot that does not match is re-read before its bytes are called corrupt.
inline constexpr uint64_t kLandingSettleNs = 1'000'000;

class LandedWriteChecker {
 public:
  // A ring of `slots` slots `stride` bytes apart from `first_slot`, each to receive `expected`;
  // the count of checked messages goes to `count_word`. A slot that does not match is re-read
  // for `settle_ns` (the fuzzer, which damages most, gives 0).
  LandedWriteChecker(uint8_t* first_slot, uint64_t stride, uint64_t slots,
                     std::span<const uint8_t> expected, uint64_t* count_word,
                     uint64_t settle_ns = kLandingSettleNs)
      : first_(first_slot),
        stride_(stride),
        slots_(slots),
        expected_(expected),
        complement_(expected.size()),
        count_(count_word),
        settle_ns_(settle_ns) {
    for (size_t i = 0; i < expected.size(); ++i)
      complement_[i] = static_cast<uint8_t>(~expected[i]);
  }

  // Before a run (before the sender may write): every slot the complement, the count 0.
  void arm() noexcept {
    for (uint64_t k = 0; k < slots_; ++k) std::memcpy(slot(k), complement_.data(), size());
    checked_ = 0;
    __atomic_store_n(count_, uint64_t{0}, __ATOMIC_RELEASE);
  }
  // Has the next message (number checked() + 1) landed: its slot's last byte turned?
  bool landed() const noexcept {
    const volatile uint8_t* last = slot(checked_) + size() - 1;
    return *last != complement_.back();
  }
  // Checks the landed next message: its corrupt bytes (0: it holds the pattern). Then its slot
  // holds the complement again and the count says it was checked.
  uint64_t check_next() noexcept {
    __atomic_thread_fence(__ATOMIC_ACQUIRE);  // the bytes written before the last one turned
    uint8_t* bytes = slot(checked_);
    uint64_t bad = count_corrupt({bytes, size()}, expected_);
    for (const uint64_t until = bad == 0 ? 0 : now_ns() + settle_ns_;
         bad != 0 && now_ns() < until;) {
      asm volatile("" ::: "memory");  // read the slot again
      bad = count_corrupt({bytes, size()}, expected_);
    }
    std::memcpy(bytes, complement_.data(), size());
    __atomic_store_n(count_, ++checked_, __ATOMIC_RELEASE);
    return bad;
  }
  uint64_t checked() const noexcept { return checked_; }
  uint64_t ring_slots() const noexcept { return slots_; }

 private:
  uint8_t* slot(uint64_t message_index) const noexcept {
    return first_ + message_index % slots_ * stride_;
  }
  size_t size() const noexcept { return expected_.size(); }

  uint8_t* first_;
  uint64_t stride_, slots_;
  std::span<const uint8_t> expected_;
  std::vector<uint8_t> complement_;
  uint64_t* count_;
  uint64_t settle_ns_;
  uint64_t checked_ = 0;
};

}  // namespace rdmabench
