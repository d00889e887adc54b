// Registers one Google Benchmark per (pattern, mode, cq strategies, size) and runs them against a
// server.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "control/client_session.h"
#include "control/stop_signals.h"
#include "core/sample_clock.h"
#include "spec/spec_validation.h"
#include "spec/test_spec.h"
#include "verbs/verbs_error.h"

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

struct SuiteOptions {
  std::string host;
  uint16_t port = 18515;
  std::chrono::milliseconds timeout{5000};
  std::string device;
  uint8_t ib_port = 1;  // --ib-port: the device's port for --cm oob
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
  std::vector<int> cpus;                // --cpus, then the placement's: thread t on cpus[t % size]
  std::optional<int> numa;              // --numa N or kNumaOff (not given: the device's node)
  std::optional<SharedKey> key;         // --key: proves this client to a server that asks
  std::optional<uint64_t> iterations;   // --iters; otherwise Google Benchmark's min_time decides
  uint64_t duration_ns = 0;             // --duration: a timed window instead of --iters
  uint64_t margin_ns = 0;               // --margin: before and after the window
  uint64_t warmup = 16;                 // --warmup: messages run before timing, in no statistic
  std::chrono::milliseconds report_every{0};  // --report-every: bw interval lines (0: none)
  TestSpec base;                              // depths, signalling, verify, bootstrap, gid, mtu
  const StopSignals* stop = nullptr;          // SIGINT/SIGTERM: skip what has not run yet
  WaitPolicy wait;                            // for a server busy with another client
  bool debug_corrupt = false;                 // testing: damage what the client sends in check runs
  bool device_counters = true;                // --counters: both sides' port counter deltas
  // What lat samples are read with (--clock), on every session the suite connects.
  SampleClock sample_clock = SampleClock::monotonic("the default");
  // The default --sizes over a transport whose messages are one packet: cut at the device's
  // path MTU once it is open (cut_sizes_to_mtu).
  bool sizes_to_mtu = false;

  // Does --mode ask for mode `m`?
  bool runs(Mode m) const { return std::find(modes.begin(), modes.end(), m) != modes.end(); }
  BootstrapOptions bootstrap_options() const {
    return BootstrapOptions::client(host, device, timeout, ib_port);
  }
};

// Every benchmark the options ask for, in the order they run: pattern (at the sizes it
// accepts), mode, CQ choice, size, rate (lat only), QP count.
std::vector<TestSpec> expand_specs(const SuiteOptions& options);

// Why a device with `limits` refuses a spec (spec_refusal), or "" when it takes it.
std::function<std::string(const TestSpec&)> refusal_by(const DeviceLimits& limits);

// With --pattern all, drops the patterns `refusal` refuses (it returns why, or "" to keep one)
// and returns a note per pattern dropped: "write_imm (siw1, driver siw: ...)". Without it, or
// when every pattern would go, drops nothing (each benchmark then says why it is refused).
std::vector<std::string> drop_refused_patterns(
    SuiteOptions& options, const std::function<std::string(const TestSpec&)>& refusal);

// Drops the sizes beyond `mtu` bytes from every pattern (and the patterns left with none);
// returns the sizes dropped.
std::vector<uint64_t> cut_sizes_to_mtu(SuiteOptions& options, uint64_t mtu);

// The iterations every benchmark is registered with: 1 with --duration (one timed window; its
// messages are in the counters), --iters, or none (Google Benchmark's min_time decides).
std::optional<uint64_t> registered_iterations(const SuiteOptions& options);

class BenchmarkSuite {
 public:
  BenchmarkSuite(SuiteOptions options, std::unique_ptr<ClientSession> session);
  // Registers every benchmark with Google Benchmark; returns how many.
  size_t register_benchmarks();
  // What register_benchmarks registered, in order.
  const std::vector<TestSpec>& specs() const noexcept { return specs_; }
  // The worst failure seen (kOk when every benchmark passed).
  ExitCode worst() const noexcept { return worst_; }

 private:
  void run_one(benchmark::State& state, const TestSpec& spec, size_t index);
  void fail(benchmark::State& state, const Error& e);
  ClientSession& session();

  SuiteOptions options_;
  std::unique_ptr<ClientSession> session_;
  std::vector<TestSpec> specs_;
  std::vector<uint64_t> samples_;
  ExitCode worst_ = ExitCode::kOk;
  size_t selected_ = 0;          // how many of specs_ --benchmark_filter selects
  std::vector<size_t> ordinal_;  // per spec: its number in the progress line (0: not yet run)
  size_t started_ = 0;
  bool interrupted_ = false;
};

}  // namespace rdmabench
