// The target's lane under --validate's write bw: one thread checks every write that lands on
// each stream of its lane (landed_write_checker.h), where a write bw target is otherwise
// passive. It ends when every stream has its messages (by iterations), or once the peer has
// said it ended its sends ("finished": its last write completed, so every write has landed)
// and one more look has taken them (landed_write_watch.h); a stream the count of whose checks falls
// short of the writes the sender completed is then said by the report. Its CPU is the
// server's; no write landing within --timeout ends it with the slot it waited on.
#pragma once

#include <chrono>

#include "datapath/bw_lane.h"
#include "datapath/endpoint.h"
#include "datapath/landed_write_checker.h"

namespace rdmabench {

// The checker of `s`'s ring (the target's side of a stream).
LandedWriteChecker landed_write_checker(QpStream& s);

LaneResult check_landed_writes(const Lane& lane, const LanePlan& plan,
                               std::chrono::milliseconds timeout);

}  // namespace rdmabench
