// The payload pattern written by senders and checked by receivers under --verify.
#pragma once

#include <cstdint>
#include <span>

namespace rdmabench {

inline uint8_t payload_byte(uint64_t offset, uint64_t size) noexcept {
  return static_cast<uint8_t>((offset * 131u + size * 7u + 0x5a) & 0xff);
}

inline void fill_payload(std::span<uint8_t> bytes, uint64_t size) noexcept {
  for (uint64_t i = 0; i < bytes.size(); ++i) bytes[i] = payload_byte(i, size);
}

// Number of bytes that differ from the pattern.
inline uint64_t count_corrupt(std::span<const uint8_t> bytes, uint64_t size) noexcept {
  uint64_t bad = 0;
  for (uint64_t i = 0; i < bytes.size(); ++i) bad += bytes[i] != payload_byte(i, size);
  return bad;
}

}  // namespace rdmabench
