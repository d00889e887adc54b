// What the atomic patterns expect of the peer's counter (datapath/atomic_operands.h): the
// values atomics fetch, in either byte order, and the chain compare-and-swap follows.
#include "datapath/atomic_operands.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "spec/test_spec.h"

namespace rdmabench {
namespace {

TEST(AtomicOperands, FetchAndAddCountsAndCompareAndSwapChainsDistinctValues) {
  for (uint64_t n : {0ull, 1ull, 7ull, 1000000ull})
    EXPECT_EQ(atomic_counter_after(IBV_WR_ATOMIC_FETCH_AND_ADD, n), n);
  std::set<uint64_t> chain;
  for (uint64_t n = 0; n < 10000; ++n)
    EXPECT_TRUE(chain.insert(atomic_counter_after(IBV_WR_ATOMIC_CMP_AND_SWP, n)).second) << n;
  // Where every counter starts, whatever byte order the device keeps it in.
  EXPECT_EQ(atomic_counter_after(IBV_WR_ATOMIC_CMP_AND_SWP, 0), 0u);
}

TEST(AtomicOperands, AValueIsReadInEitherByteOrderAndNothingElse) {
  uint8_t bytes[8];
  const uint64_t value = 0x0102030405060708ull;
  std::memcpy(bytes, &value, sizeof value);
  EXPECT_TRUE(holds_value(bytes, value));
  const uint64_t swapped = __builtin_bswap64(value);
  std::memcpy(bytes, &swapped, sizeof swapped);
  EXPECT_TRUE(holds_value(bytes, value));  // a device that keeps its counter big-endian
  EXPECT_FALSE(holds_value(bytes, value + 1));
  EXPECT_FALSE(holds_value(bytes, 0));
}

// A stream as fetch_slot sees it: its spec's tx depth, and a slot i of its own at target(i).
struct SlotStream {
  TestSpec s;
  uint8_t bytes[64] = {};
  const TestSpec& spec() const { return s; }
  uint8_t* target(uint64_t i) { return bytes + i % sizeof bytes; }
};

TEST(AtomicOperands, TheFetchSlotTableGivesEachAtomicTheSlotFetchSlotNames) {
  SlotStream stream;
  stream.s.tx_depth = 5;
  FetchSlots slots(stream);
  for (uint64_t first : {0ull, 3ull, 4ull, 5ull, 1000003ull}) {
    slots.seek(first);
    for (uint64_t n = first; n < first + 12; ++n)  // round the table more than twice
      EXPECT_EQ(slots.next(), fetch_slot(stream, n)) << "from " << first << ", atomic " << n;
  }
}

}  // namespace
}  // namespace rdmabench
