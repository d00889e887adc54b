// One side's part of one run, on all its threads: thread t drives lane t of the endpoint, by
// the shared bw lane loop or (lat) by the pattern's ping-pong on its one stream. The client
// and the server both run their side through here; what differs is which direction each
// sends and receives.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

#include "core/sample_clock.h"
#include "cq/poll_target.h"
#include "datapath/bw_lane.h"
#include "datapath/endpoint.h"
#include "datapath/live_counts.h"
#include "datapath/pattern.h"
#include "datapath/resource_usage.h"
#include "datapath/run_watch.h"
#include "datapath/side_figures.h"

namespace rdmabench {

// What one thread did in a run.
struct ThreadOutcome {
  ResourceUsage used;                // its CPU over the whole run
  PollCounts counts;                 // of its CQs
  uint64_t window_ns = 0;            // bw: its counted window (0 when it had nothing to send)
  uint64_t first_read_ns = 0;        // bw, timed: its first completion read (0: none)
  std::vector<StreamTally> streams;  // bw: per stream of its lane
  ClientMeasurement lat;             // lat client
  uint64_t echoed = 0;               // lat server: round trips echoed
  VerifyTally verify;
};

struct SideRunOptions {
  RunLength length;
  std::chrono::milliseconds timeout{5000};
  std::vector<int> cpus;       // --cpus: thread t on cpus[t % size]; empty: not pinned
  LiveCounts* live = nullptr;  // bw: each thread's running count of completed sends, or none
  const SampleClock* clock = nullptr;  // lat samples' clock (none: CLOCK_MONOTONIC)
};

// Does this side stream in bw mode, and does it consume the peer's stream?
bool side_sends(const TestSpec& spec, Side side);
bool side_receives(const TestSpec& spec, Side side);

// Runs every thread's lane; lat samples of thread t go to samples[t * per_thread ...].
// Raises `abort` when a thread fails (the others stop) and rethrows the first failure.
std::vector<ThreadOutcome> run_side(Endpoint& ep, TransportPattern& pattern, Side side,
                                    const SideRunOptions& options, std::span<uint64_t> samples,
                                    const RunAbort& abort);

}  // namespace rdmabench

namespace rdmabench {

// The side's figures in total and per thread, its sends per stream (in stream order) and its
// window. Stream i ran on thread i % threads as that lane's (i / threads)-th stream.
SideReport summarize_side(const std::vector<ThreadOutcome>& threads, const TestSpec& spec,
                          Side side);

}  // namespace rdmabench
