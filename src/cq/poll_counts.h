// What a completion strategy did on one side's CQs in a run: the counters that explain it.
#pragma once

#include <cstdint>

namespace rdmabench {

struct PollCounts {
  uint64_t empty_polls = 0;  // ibv_poll_cq calls that returned nothing
  uint64_t wakeups = 0;      // completion events taken from the channel
};

}  // namespace rdmabench
