// One mesh pair, measured from its client rank: connect to the server rank's background
// server, warm up, run the benchmark once by iterations, and keep its counters (the same
// run_counters as `rdmabench run`), or why it failed.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

#include "channel/tls_context.h"
#include "core/local_device.h"
#include "measure/benchmark_measurement.h"
#include "mesh/pair_result.h"
#include "session/client_session.h"
#include "session/run_source.h"
#include "spec/run_length.h"
#include "spec/test_spec.h"

namespace rdmabench {

struct PairRunOptions {
  // The timed run's messages, or (duration above 0) a timed window (--traffic), after the
  // warm-up both sides run first, in no figure.
  RunLength length{1000, 0, 0, 16};
  LocalDevice local;                        // this rank's device, and (oob) its port and GID index
  std::string source_address;               // this rank's address (rdma_cm resolves from it)
  std::chrono::milliseconds timeout{5000};  // every blocking step
  std::chrono::milliseconds wait{10000};    // a server still finishing its last client
  std::optional<TlsContext> tls;            // mesh --key or --cert: TLS with every rank's server
};

// The pair's benchmark on a session set up for `spec`: the measurement `rdmabench run` makes
// (benchmark_measurement.h), by iterations. Throws Error(kVerification) when --verify found
// corrupt messages.
std::map<std::string, double> measure_one_pair(RunSource& source, const TestSpec& spec,
                                               const PairRunOptions& options);

// The plan each timed run of a pair or flow follows: its iterations or its window.
MeasurePlan pair_measure_plan(const PairRunOptions& options);

// Runs `step`; an exception it throws becomes `result`'s error and exit code (an rdmabench
// Error's own, kInternal for any other). False when it threw.
bool capture_failure(PairResult& result, const std::function<void()>& step);

// A session with the server at `server`, set up for `spec`: waits up to options.wait while that
// server finishes another client. Throws as ClientSession does.
std::unique_ptr<ClientSession> connect_pair(const PeerAddress& server, const TestSpec& spec,
                                            const PairRunOptions& options, std::ostream& log);

// Never throws an rdmabench Error: a failure is the result's error and exit code.
PairResult measure_pair(const PeerAddress& server, const TestSpec& spec, MeshPair pair,
                        const PairRunOptions& options, std::ostream& log);

}  // namespace rdmabench
