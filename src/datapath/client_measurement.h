// What one lat client thread measured in a run.
#pragma once

#include <cstdint>
#include <vector>

#include "datapath/verify_tally.h"

namespace rdmabench {

// An open-loop run's connection (TestSpec::open_loop): its round trips started (margins
// included) and those counted, whose samples are the thread's from its index x room on.
struct ConnectionTally {
  uint64_t started = 0;
  uint64_t counted = 0;
};

struct ClientMeasurement {
  double seconds = 0;            // lat: sum of counted round trips
  double span_seconds = 0;       // lat: first counted send (intended, with --rate) to last reply
  uint64_t round_trips = 0;      // lat: counted (all of them, or those inside the window)
  uint64_t all_round_trips = 0;  // lat: every one of the run, margins included
  VerifyTally verify;            // what a checking run's client found, by round trip
  // Open loop: the thread's connections in lane order (its j-th is QP t + j x threads), each
  // with the samples it counted at room x j of the thread's samples. Empty otherwise (the
  // thread's counted samples come first).
  std::vector<ConnectionTally> connections;
  uint64_t connection_room = 0;
};

}  // namespace rdmabench
