// What a suite of benchmarks is asked for, one struct per concern: the server it connects to,
// the benchmarks it expands into (spec/benchmark_matrix.h), how long each runs, where its threads
// run and what it reports beside its figures. `rdmabench run` builds it from its command line;
// `rdmabench search` builds a matrix of one benchmark per point (cli/point_request.h), with no
// command line between.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "bootstrap/bootstrap.h"
#include "channel/tls_context.h"
#include "core/peer_address.h"
#include "core/sample_clock.h"
#include "host/cpu_placement.h"
#include "session/client_session.h"
#include "session/stop_signals.h"
#include "spec/benchmark_matrix.h"
#include "spec/run_length.h"
#include "spec/test_spec.h"

namespace rdmabench {

// Where the suite connects, and how long it waits.
struct PeerConnection {
  PeerAddress address;
  std::chrono::milliseconds timeout{5000};
  LocalDevice local;              // --device, and for --cm oob --ib-port and --gid-index
  std::optional<TlsContext> tls;  // --key or --cert: TLS 1.3 with a server that asks for it
  WaitPolicy wait;                // for a server busy with another client
  BootstrapOptions bootstrap_options() const {
    return BootstrapOptions::client(address.host, local, timeout);
  }
};

// What the suite reads and says beside its figures.
struct SuiteReporting {
  std::chrono::milliseconds report_every{0};  // --report-every: bw interval lines (0: none)
  bool device_counters = true;                // --counters: both sides' port counter deltas
  // What lat samples are read with (--clock), on every session the suite connects.
  SampleClock sample_clock = SampleClock::monotonic("the default");
};

struct SuiteOptions {
  PeerConnection peer;
  BenchmarkMatrix matrix;
  // --iters (0: Google Benchmark's min_time decides), or --duration and --margin; --warmup.
  RunLength length;
  PlacementRequest placement;  // --cpus, --numa, then the placement's: thread t on cpus[t % size]
  SuiteReporting reporting;
  const StopSignals* stop = nullptr;  // SIGINT/SIGTERM: skip what has not run yet
  bool debug_corrupt = false;         // testing: damage what the client sends in check runs
};

}  // namespace rdmabench
