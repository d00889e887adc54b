// What one lat client thread measured in a run.
#pragma once

#include <cstdint>

#include "datapath/verify_tally.h"

namespace rdmabench {

struct ClientMeasurement {
  double seconds = 0;            // lat: sum of counted round trips
  double span_seconds = 0;       // lat: first counted send (intended, with --rate) to last reply
  uint64_t round_trips = 0;      // lat: counted (all of them, or those inside the window)
  uint64_t all_round_trips = 0;  // lat: every one of the run, margins included
  VerifyTally verify;            // what a checking run's client found, by round trip
};

}  // namespace rdmabench
