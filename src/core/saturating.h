// Counts of bytes that saturate at UINT64_MAX instead of wrapping: what a peer asks (a message
// of 2^63 bytes, 2^20 QPs) is counted against a cap, never wrapped under it.
#pragma once

#include <cstdint>

namespace rdmabench {

inline uint64_t saturating_add(uint64_t a, uint64_t b) {
  uint64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}

inline uint64_t saturating_mul(uint64_t a, uint64_t b) {
  uint64_t product = 0;
  return __builtin_mul_overflow(a, b, &product) ? UINT64_MAX : product;
}

}  // namespace rdmabench
