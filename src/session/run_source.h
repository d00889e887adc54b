// What measuring a benchmark needs of a connection: one run at a time, on a spec that is set
// up already. ClientSession is one; the unit tests have a fake.
#pragma once

#include <span>
#include <vector>

#include "datapath/client_measurement.h"
#include "datapath/live_counts.h"
#include "datapath/side_figures.h"
#include "spec/run_length.h"

namespace rdmabench {

struct RunResult {
  std::vector<ClientMeasurement> client_lat;  // lat: each client thread's measurement
  SideReport client;
  SideReport server;
  // Both sides' QPs go out of one port (one host, one device): each side's port counters
  // counted both sides' traffic, so the client's reading (which spans the server's) is the
  // run's, and the server's is not added to it.
  bool one_port = false;
};

// One run as the client asks for it.
struct ClientRun {
  RunLength length;
  bool check = false;     // a --verify check run: untimed, every message checked
  bool corrupt = false;   // testing, with check: damage what this side sends from the middle on
  std::vector<int> cpus;  // --cpus: client thread t on cpus[t % size]
  LiveCounts* live = nullptr;    // bw: where each client thread counts its sends as it goes
  bool device_counters = false;  // both sides read their port's counters around the run
};

class RunSource {
 public:
  virtual ~RunSource() = default;
  // One run; lat samples of thread t go to samples[t * (size / threads) ...].
  virtual RunResult run(const ClientRun& request, std::span<uint64_t> samples) = 0;
};

}  // namespace rdmabench
