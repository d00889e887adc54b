// The loop of the target's lane under --validate's write bw (landed_write_lane.h): looks at
// every stream's ring in turn, checks what landed, and ends when every stream has its messages,
// once the peer has said it ended its sends, on an abort, or when nothing lands within
// --timeout. The sender is an adversary: one that writes without end holds the loop neither
// past an abort (looked at every 4096 looks, landing or not) nor past its own end (a look
// checks at most a lap of each ring, and one look follows the end). A template over the stream
// and its checker, so that tests drive it on fakes (tests/unit/landed_write_watch_test.cpp): a
// stream gives index(), name(), abort_requested() and peer_has_ended(); a checker checked(),
// ring_slots(), landed() and check_next().
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string>

#include "core/clock.h"
#include "core/error.h"
#include "cq/poll_target.h"
#include "datapath/verify_tally.h"

namespace rdmabench {

namespace landed_watch_detail {

template <typename Stream>
[[noreturn]] void throw_nothing_landed(const Stream& s, uint64_t message,
                                       std::chrono::milliseconds timeout) {
  throw Error(ExitCode::kRuntime,
              "--validate: message " + std::to_string(message) + " of QP " +
                  std::to_string(s.index()) + " did not land in its slot within " +
                  std::to_string(timeout.count()) + " ms in " + s.name() +
                  " (the sender stalled or went away, or its writes go elsewhere: see --timeout)");
}

// One look at every stream: checks what landed, at most a lap of its ring (a sender that keeps
// the ring's room has no more unchecked). Returns whether anything did, and whether every
// stream has its `due` messages.
struct Look {
  bool landed = false, all_done = true;
};
template <typename Stream, typename Checker>
Look look_once(std::span<Stream* const> streams, std::span<Checker> checkers, uint64_t due,
               VerifyTally& verify) {
  Look look;
  for (size_t i = 0; i < checkers.size(); ++i) {
    Checker& c = checkers[i];
    const uint64_t lap_end = c.checked() + c.ring_slots();
    while (c.checked() < due && c.checked() < lap_end && c.landed()) {
      const uint64_t bad = c.check_next();
      verify.add(bad, streams[i]->index(), c.checked());
      look.landed = true;
    }
    look.all_done = look.all_done && c.checked() >= due;
  }
  return look;
}

// The stream whose checks are the furthest behind, and its next message: what a stall names.
template <typename Stream, typename Checker>
const Stream& furthest_behind(std::span<Stream* const> streams, std::span<const Checker> checkers,
                              uint64_t& message) {
  size_t behind = 0;
  for (size_t i = 1; i < checkers.size(); ++i)
    if (checkers[i].checked() < checkers[behind].checked()) behind = i;
  message = checkers[behind].checked() + 1;
  return *streams[behind];
}

}  // namespace landed_watch_detail

// Checks the writes landing on `streams` (checker i watches stream i's ring) until each has
// `due` (UINT64_MAX in a timed window). Returns what the checks found.
template <typename Stream, typename Checker>
VerifyTally watch_landed_writes(std::span<Stream* const> streams, std::span<Checker> checkers,
                                uint64_t due, std::chrono::milliseconds timeout) {
  using namespace landed_watch_detail;
  const Stream& first = *streams.front();
  const uint64_t timeout_ns = static_cast<uint64_t>(timeout.count()) * 1'000'000;
  VerifyTally verify;
  bool landed = false;      // since the clock was last read
  uint64_t idle_since = 0;  // the last clock read after writes landed, or the first (0: none)
  for (uint32_t turn = 1;; ++turn) {
    const bool ended = first.peer_has_ended();  // before the look: its writes have all landed
    const Look look = look_once(streams, checkers, due, verify);
    if (look.all_done || ended) break;  // after the end, that look took every write made
    landed = landed || look.landed;
    if ((turn & 0xfff) != 0) continue;
    if (first.abort_requested() && !first.peer_has_ended()) throw_run_aborted(first.name());
    const uint64_t t = now_ns();
    if (landed || idle_since == 0) {
      landed = false;
      idle_since = t;
      continue;
    }
    if (t - idle_since > timeout_ns) {
      uint64_t message = 0;
      const Stream& stalled = furthest_behind(streams, std::span<const Checker>(checkers), message);
      throw_nothing_landed(stalled, message, timeout);
    }
  }
  return verify;
}

}  // namespace rdmabench
