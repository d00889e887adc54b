// What the atomic patterns expect of the peer's counter (datapath/atomic_operands.h): the
// values atomics fetch, in either byte order, and the chain compare-and-swap follows.
#include "datapath/atomic_operands.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>

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

}  // namespace
}  // namespace rdmabench
