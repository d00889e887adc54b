// How many latency samples a timed window (--duration) keeps room for, per thread: sized
// before the window opens, since nothing may allocate inside it; and what a latency run's
// samples take at most, checked against the host before anything runs.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/saturating.h"
#include "spec/run_length.h"

namespace rdmabench {

// At most this many samples per thread (8 bytes each).
inline constexpr uint64_t kMaxTimedSamples = uint64_t{1} << 24;
// The sizing never takes a round trip to be slower than this: a warm-up that met a stall
// (an emulated guest's, a page-in) must not leave the window short of room.
inline constexpr uint64_t kSlowestSizingRoundTripNs = 10'000;

// Room for every round trip a window of `window_ns` can hold: twice the window over the
// fastest round trip the warm-up saw (none is faster than the path allows), or over
// kSlowestSizingRoundTripNs when the warm-up saw none that fast; capped at kMaxTimedSamples.
inline uint64_t timed_sample_room(uint64_t window_ns, uint64_t fastest_warmup_ns) {
  const uint64_t fastest = std::clamp<uint64_t>(fastest_warmup_ns, 1, kSlowestSizingRoundTripNs);
  return std::min(kMaxTimedSamples, 2 * window_ns / fastest + 1024);
}

// An open-loop window's room per thread (TestSpec::open_loop): for each of its `connections`,
// twice the round trips its --rate starts in the window and 64 more (Poisson's gaps may bunch),
// capped at kMaxTimedSamples (a connection then short of room fails, saying so).
inline uint64_t open_loop_sample_room(uint64_t window_ns, uint64_t rate, uint32_t connections) {
  const uint64_t per_connection =
      saturating_mul(2 * (window_ns / 1'000'000 + 1), rate) / 1'000 + 64;
  return std::min(kMaxTimedSamples, saturating_mul(per_connection, connections));
}

// The bytes of latency samples a run of `length` on `threads` keeps at most (8 a message of
// each thread: every iteration or warm-up message, or a timed window's room), saturating.
inline uint64_t latency_sample_bytes(const RunLength& length, uint32_t threads) {
  const uint64_t per_thread = std::max(length.iterations, length.warmup);
  const uint64_t most = length.timed_window() ? std::max(per_thread, kMaxTimedSamples) : per_thread;
  return saturating_mul(saturating_mul(most, threads), sizeof(uint64_t));
}

}  // namespace rdmabench
