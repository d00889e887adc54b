// What a suite of benchmarks is asked for, one struct per concern: the server it connects to,
// the benchmarks it expands into, how long each runs, where its threads run and what it reports
// beside its figures. `rdmabench run` builds it from its command line; `rdmabench search` builds
// a matrix of one benchmark per point (cli/point_request.h), with no command line between.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "control/bootstrap.h"
#include "control/client_session.h"
#include "control/shared_key.h"
#include "control/stop_signals.h"
#include "core/sample_clock.h"
#include "host/cpu_placement.h"
#include "spec/run_length.h"
#include "spec/test_spec.h"

namespace rdmabench {

// One --rate item: lat round trips, or bw messages a QP, per second (0: back to back); or, for
// bw only, Gb/s of payload a QP, which each size turns into messages per second.
struct OfferedRate {
  uint64_t per_second = 0;
  double gbps = 0;  // > 0: given in Gb/s
  uint64_t per_second_at(uint64_t size) const {
    if (gbps <= 0) return per_second;
    return std::max<uint64_t>(
        1, static_cast<uint64_t>(std::llround(gbps * 1e9 / 8 / static_cast<double>(size))));
  }
  bool paces() const { return per_second > 0 || gbps > 0; }
  std::string gbps_text() const;  // 2.5 -> "2.5", 10 -> "10"
};

// Where the suite connects, and how long it waits.
struct PeerConnection {
  std::string host;
  uint16_t port = 18515;
  std::chrono::milliseconds timeout{5000};
  std::string device;
  uint8_t ib_port = 1;                // --ib-port: the device's port for --cm oob
  std::optional<uint32_t> gid_index;  // --gid-index: this side's GID index for --cm oob
  std::optional<SharedKey> key;       // --key: proves this client to a server that asks
  WaitPolicy wait;                    // for a server busy with another client
  BootstrapOptions bootstrap_options() const {
    return BootstrapOptions::client(host, device, timeout, ib_port, {}, gid_index);
  }
};

// The benchmarks the suite runs: every combination of these (expand_specs), each over `base`.
struct BenchmarkMatrix {
  // Each pattern with the sizes it runs (expand_patterns); `sizes` holds every size given.
  std::vector<std::pair<Pattern, std::vector<uint64_t>>> patterns;
  bool all_patterns = false;  // --pattern all: a pattern the device refuses is left out, said
  std::vector<Mode> modes;
  std::vector<CqChoice> cq_choices;
  std::vector<uint64_t> sizes;
  std::vector<OfferedRate> rates{OfferedRate{}};  // --rate: offered loads (0: back to back)
  std::vector<uint32_t> qps{1};                   // --qps: QPs per benchmark, one benchmark each
  std::vector<uint32_t> post_lists{1};  // --post-list: bw chain lengths, one benchmark each
  uint32_t threads = 1;                 // --threads (at most the QP count)
  // The default --sizes over a transport whose messages are one packet: cut at the device's
  // path MTU once it is open (cut_sizes_to_mtu).
  bool sizes_to_mtu = false;
  TestSpec base;  // depths, signalling, verify, bootstrap, gid, mtu

  // Does --mode ask for mode `m`?
  bool runs(Mode m) const { return std::find(modes.begin(), modes.end(), m) != modes.end(); }
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
