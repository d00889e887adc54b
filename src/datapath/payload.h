// The payload pattern written by senders and checked by receivers under --verify.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>

namespace rdmabench {

inline uint8_t payload_byte(uint64_t offset, uint64_t size) noexcept {
  return static_cast<uint8_t>((offset * 131u + size * 7u + 0x5a) & 0xff);
}

inline void fill_payload(std::span<uint8_t> bytes, uint64_t size) noexcept {
  for (uint64_t i = 0; i < bytes.size(); ++i) bytes[i] = payload_byte(i, size);
}

// Bytes of the 8 at `a` and `b` that differ.
inline uint64_t differing_bytes_of_word(const uint8_t* a, const uint8_t* b) noexcept {
  uint64_t x, y;
  std::memcpy(&x, a, sizeof x);
  std::memcpy(&y, b, sizeof y);
  uint64_t d = x ^ y;  // a byte of it is non-zero where the bytes differ: fold each onto its bit 0
  d |= d >> 4;
  d |= d >> 2;
  d |= d >> 1;
  return static_cast<uint64_t>(std::popcount(d & 0x0101010101010101ull));
}

// Bytes of `bytes` that differ from the pattern made beforehand (`expected`, at least as long
// as `bytes`): where nothing differs, as in every check that passes, it costs one memcmp
// (--validate checks inside the timed runs: a byte-by-byte loop over payload_byte cost a third
// of read bw's rate at 4 KiB in the deterministic guest); where something does, a word-by-word
// count. A receiver that finds damage must not fall behind: that loop took 46 us a 4 KiB
// message in the TCG guest (0.02 us for memcmp), and a siw receiver that slow ran out of
// posted receives, which iWARP answers by terminating the connection (no RNR retry), losing
// the run it was checking.
inline uint64_t count_corrupt(std::span<const uint8_t> bytes,
                              std::span<const uint8_t> expected) noexcept {
  if (std::memcmp(bytes.data(), expected.data(), bytes.size()) == 0) [[likely]]
    return 0;
  uint64_t bad = 0;
  size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) bad += differing_bytes_of_word(&bytes[i], &expected[i]);
  for (; i < bytes.size(); ++i) bad += bytes[i] != expected[i];
  return bad;
}

}  // namespace rdmabench
