#include "datapath/landed_write_lane.h"

#include <cstdint>
#include <span>
#include <vector>

#include "datapath/checked_write_ring.h"
#include "datapath/landed_write_watch.h"

namespace rdmabench {

LandedWriteChecker landed_write_checker(QpStream& s) {
  // The ring's layout as the writer computes it for this buffer (checked_write_ring.h).
  const CheckedWriteRing ring =
      CheckedWriteRing::of(s.spec(), reinterpret_cast<uintptr_t>(s.target(0)));
  return LandedWriteChecker(s.target(0), ring.stride, ring.slots, s.expected_payload(),
                            s.checked_count_word());
}

LaneResult check_landed_writes(const Lane& lane, const LanePlan& plan,
                               std::chrono::milliseconds timeout) {
  std::vector<LandedWriteChecker> checkers;
  for (QpStream* s : lane.streams) checkers.push_back(landed_write_checker(*s));
  const uint64_t due = plan.length.timed_window() ? UINT64_MAX : plan.length.iterations;
  LaneResult result;
  const ResourceUsage before = ResourceUsage::now();
  result.verify = watch_landed_writes(std::span<QpStream* const>(lane.streams),
                                      std::span<LandedWriteChecker>(checkers), due, timeout);
  result.used = ResourceUsage::now() - before;
  result.streams.resize(checkers.size());
  for (size_t i = 0; i < checkers.size(); ++i) result.streams[i].received = checkers[i].checked();
  return result;
}

}  // namespace rdmabench
