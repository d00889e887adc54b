// The target's check of --validate's write bw on plain memory: a slot is taken when its last
// byte turns from the complement, checked against the pattern, given back its complement, and
// counted where the sender reads; a damaged byte is counted once its settling time is over.
#include "datapath/landed_write_checker.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "datapath/payload.h"

namespace rdmabench {
namespace {

struct Ring {
  explicit Ring(uint64_t size, uint64_t slots, uint64_t stride)
      : bytes(slots * stride), pattern(size), stride(stride) {
    fill_payload(pattern, size);
  }
  LandedWriteChecker checker(uint64_t slots) {
    return LandedWriteChecker(bytes.data(), stride, slots, pattern, &count);
  }
  // What a device does: message n (from 1) into its slot, `damage` xored into byte `at`.
  void land(uint64_t n, uint64_t slots, size_t at = 0, uint8_t damage = 0) {
    uint8_t* slot = bytes.data() + (n - 1) % slots * stride;
    std::copy(pattern.begin(), pattern.end(), slot);
    slot[at] ^= damage;
  }
  bool holds_complement(uint64_t k) const {
    for (size_t i = 0; i < pattern.size(); ++i)
      if (bytes[k * stride + i] != static_cast<uint8_t>(~pattern[i])) return false;
    return true;
  }
  std::vector<uint8_t> bytes, pattern;
  uint64_t stride;
  uint64_t count = 99;  // what an earlier run left
};

TEST(LandedWriteChecker, ArmedSlotsHoldTheComplementAndNothingHasLanded) {
  Ring ring(64, 4, 72);
  LandedWriteChecker c = ring.checker(4);
  c.arm();
  for (uint64_t k = 0; k < 4; ++k) EXPECT_TRUE(ring.holds_complement(k)) << k;
  EXPECT_EQ(ring.count, 0u);
  EXPECT_FALSE(c.landed());
}

TEST(LandedWriteChecker, EachMessageIsCheckedInItsSlotRoundTheRingAndCounted) {
  Ring ring(64, 4, 72);
  LandedWriteChecker c = ring.checker(4);
  c.arm();
  for (uint64_t n = 1; n <= 10; ++n) {
    EXPECT_FALSE(c.landed()) << n;
    ring.land(n, 4);
    ASSERT_TRUE(c.landed()) << n;
    EXPECT_EQ(c.check_next(), 0u) << n;
    EXPECT_EQ(ring.count, n);
    EXPECT_EQ(c.checked(), n);
    EXPECT_TRUE(ring.holds_complement((n - 1) % 4)) << n;  // a lost write shows next time round
  }
}

TEST(LandedWriteChecker, ADamagedByteIsCountedAndTheSlotStillGivenBack) {
  Ring ring(64, 2, 64);
  LandedWriteChecker c = ring.checker(2);
  c.arm();
  ring.land(1, 2, 5, 0x10);
  ASSERT_TRUE(c.landed());
  EXPECT_EQ(c.check_next(), 1u);
  EXPECT_EQ(ring.count, 1u);
  EXPECT_TRUE(ring.holds_complement(0));
  ring.land(2, 2);
  EXPECT_EQ(c.check_next(), 0u);
}

TEST(LandedWriteChecker, AOneByteMessageIsItsOwnLastByte) {
  Ring ring(1, 3, 1);
  LandedWriteChecker c = ring.checker(3);
  c.arm();
  EXPECT_FALSE(c.landed());
  ring.land(1, 3);
  ASSERT_TRUE(c.landed());
  EXPECT_EQ(c.check_next(), 0u);
  EXPECT_FALSE(c.landed());  // message 2's slot still holds the complement
}

}  // namespace
}  // namespace rdmabench
