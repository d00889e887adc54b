#include "datapath/payload.h"

#include <gtest/gtest.h>

#include <vector>

using namespace rdmabench;

namespace {

std::vector<uint8_t> pattern_of(uint64_t size) {
  std::vector<uint8_t> bytes(size);
  fill_payload(bytes, size);
  return bytes;
}

// The count by the definition, a byte at a time: what the word-by-word count must equal.
uint64_t differing_bytes(const std::vector<uint8_t>& bytes, const std::vector<uint8_t>& expected) {
  uint64_t bad = 0;
  for (size_t i = 0; i < bytes.size(); ++i) bad += bytes[i] != expected[i];
  return bad;
}

}  // namespace

TEST(Payload, ACleanMessageHasNoCorruptBytes) {
  for (uint64_t size : {0u, 1u, 7u, 8u, 9u, 4096u}) {
    const std::vector<uint8_t> expected = pattern_of(size);
    for (uint64_t i = 0; i < size; ++i) ASSERT_EQ(expected[i], payload_byte(i, size)) << size;
    EXPECT_EQ(count_corrupt(expected, expected), 0u) << size;
  }
}

// The count against the pattern made beforehand (the timed checks') is the byte loop's, damage
// anywhere: in the whole words, across a word's edge and in the tail past the last whole one.
TEST(Payload, TheCountAgainstTheMadePatternIsTheByteLoops) {
  for (uint64_t size : {1u, 5u, 8u, 13u, 64u, 67u, 4096u}) {
    const std::vector<uint8_t> expected = pattern_of(size);
    for (uint64_t at = 0; at < size; at += (size > 100 ? 97 : 1)) {
      for (uint64_t run : {1u, 2u, 9u, 17u}) {
        std::vector<uint8_t> bytes = expected;
        for (uint64_t i = at; i < std::min(size, at + run); i += (run == 17 ? 2 : 1))
          bytes[i] ^= static_cast<uint8_t>(1u << (i % 8));  // one bit: the fold must find it
        const uint64_t want = differing_bytes(bytes, expected);
        ASSERT_GT(want, 0u);
        EXPECT_EQ(count_corrupt(bytes, expected), want) << size << " at " << at << " run " << run;
      }
    }
  }
}

TEST(Payload, EveryByteOfAWordCanDifferOnce) {
  const std::vector<uint8_t> expected = pattern_of(8);
  std::vector<uint8_t> bytes = expected;
  for (auto& b : bytes) b = static_cast<uint8_t>(~b);
  EXPECT_EQ(count_corrupt(bytes, expected), 8u);
  bytes[3] = expected[3];
  EXPECT_EQ(count_corrupt(bytes, expected), 7u);
  bytes[0] = static_cast<uint8_t>(expected[0] ^ 0x80);  // the top bit alone
  EXPECT_EQ(count_corrupt(bytes, expected), 7u);
}
