#include "datapath/landed_write_lane.h"

#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "cq/poll_target.h"
#include "datapath/checked_write_ring.h"

namespace rdmabench {

LandedWriteChecker landed_write_checker(QpStream& s) {
  // The ring's layout as the writer computes it for this buffer (checked_write_ring.h).
  const CheckedWriteRing ring =
      CheckedWriteRing::of(s.spec(), reinterpret_cast<uintptr_t>(s.target(0)));
  return LandedWriteChecker(s.target(0), ring.stride, ring.slots, s.expected_payload(),
                            s.checked_count_word());
}

namespace {

[[noreturn]] void throw_nothing_landed(const QpStream& s, uint64_t message,
                                       std::chrono::milliseconds timeout) {
  throw Error(ExitCode::kRuntime,
              "--validate: message " + std::to_string(message) + " of QP " +
                  std::to_string(s.index()) + " did not land in its slot within " +
                  std::to_string(timeout.count()) + " ms in " + s.name() +
                  " (the sender stalled or went away, or its writes go elsewhere: see --timeout)");
}

// One look at every stream: checks what landed. Returns whether anything did, and whether
// every stream has its `due` messages.
struct Look {
  bool landed = false, all_done = true;
};
Look look_once(const Lane& lane, std::vector<LandedWriteChecker>& checkers, uint64_t due,
               VerifyTally& verify) {
  Look look;
  for (size_t i = 0; i < checkers.size(); ++i) {
    LandedWriteChecker& c = checkers[i];
    while (c.checked() < due && c.landed()) {
      const uint64_t bad = c.check_next();
      verify.add(bad, lane.streams[i]->index(), c.checked());
      look.landed = true;
    }
    look.all_done = look.all_done && c.checked() >= due;
  }
  return look;
}

// The stream whose checks are the furthest behind, and its next message: what a stall names.
const QpStream& furthest_behind(const Lane& lane, const std::vector<LandedWriteChecker>& checkers,
                                uint64_t& message) {
  size_t behind = 0;
  for (size_t i = 1; i < checkers.size(); ++i)
    if (checkers[i].checked() < checkers[behind].checked()) behind = i;
  message = checkers[behind].checked() + 1;
  return *lane.streams[behind];
}

}  // namespace

LaneResult check_landed_writes(const Lane& lane, const LanePlan& plan,
                               std::chrono::milliseconds timeout) {
  std::vector<LandedWriteChecker> checkers;
  for (QpStream* s : lane.streams) checkers.push_back(landed_write_checker(*s));
  const QpStream& first = *lane.streams.front();
  const uint64_t due = plan.length.timed_window() ? UINT64_MAX : plan.length.iterations;
  const uint64_t timeout_ns = static_cast<uint64_t>(timeout.count()) * 1'000'000;
  LaneResult result;
  const ResourceUsage before = ResourceUsage::now();
  uint64_t idle_since = 0;  // when looks began to find nothing (0: something just landed)
  for (uint32_t idle = 0;;) {
    const bool ended = first.peer_has_ended();  // before the look: its writes have all landed
    const Look look = look_once(lane, checkers, due, result.verify);
    if (look.all_done || (ended && !look.landed)) break;
    if (look.landed) {
      idle = 0;
      idle_since = 0;
      continue;
    }
    if ((++idle & 0xfff) != 0) continue;
    if (first.abort_requested() && !first.peer_has_ended()) throw_run_aborted(first.name());
    const uint64_t t = now_ns();
    if (idle_since == 0) idle_since = t;
    if (t - idle_since > timeout_ns) {
      uint64_t message = 0;
      const QpStream& stalled = furthest_behind(lane, checkers, message);
      throw_nothing_landed(stalled, message, timeout);
    }
  }
  result.used = ResourceUsage::now() - before;
  result.streams.resize(checkers.size());
  for (size_t i = 0; i < checkers.size(); ++i) result.streams[i].received = checkers[i].checked();
  return result;
}

}  // namespace rdmabench
