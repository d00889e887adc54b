// A rank's flows of one traffic round, measured at once: each on a thread of its own connects,
// sets up and warms up; when every flow of this rank is ready (or has failed), `all_ready`
// runs once on the calling thread (the job's barrier over every rank), and then every flow's
// timed window starts together. So the windows of a round's flows overlap across the ranks,
// whatever each one's set-up took. Every step has its own deadline (PairRunOptions::timeout),
// so no thread waits on a peer past it.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "mesh/pair_measurement.h"
#include "mesh/pair_result.h"
#include "mesh/traffic.h"
#include "session/run_source.h"
#include "spec/test_spec.h"

namespace rdmabench {

// Opens one flow's session, set up for the spec: over the network in the job, a fake in tests.
using FlowConnect = std::function<std::unique_ptr<RunSource>(const TrafficFlow&)>;

// Each flow's result, in the flows' order; never throws an rdmabench Error for a flow (a
// failure is its result's error). `all_ready` is called even with no flows.
std::vector<PairResult> measure_flows(const std::vector<TrafficFlow>& flows, const TestSpec& spec,
                                      const PairRunOptions& run, const FlowConnect& connect,
                                      const std::function<void()>& all_ready);

}  // namespace rdmabench
