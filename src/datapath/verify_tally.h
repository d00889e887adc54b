// What a run's checks found (--verify's check run, or --validate's timed runs): the corrupt
// bytes or messages, and the first message found so, by its stream and its number in the run.
#pragma once

#include <cstdint>
#include <optional>

namespace rdmabench {

struct BadMessage {
  uint32_t stream = 0;   // the QP's index on its side (the order streams are reported in)
  uint64_t message = 0;  // its number in the run, from 1 (lat: the round trip)
  bool operator==(const BadMessage&) const = default;
};

struct VerifyTally {
  uint64_t errors = 0;
  std::optional<BadMessage> first;  // the first message any check of this tally failed

  // One check of `message` on `stream` that found `bad` corrupt bytes or messages (0: none).
  void add(uint64_t bad, uint32_t stream, uint64_t message) noexcept {
    if (bad == 0) [[likely]]
      return;
    errors += bad;
    if (!first) first = BadMessage{stream, message};
  }
  // Another thread's tally: its errors, and its first message where this one has none.
  VerifyTally& operator+=(const VerifyTally& o) noexcept {
    errors += o.errors;
    if (!first) first = o.first;
    return *this;
  }
};

}  // namespace rdmabench
