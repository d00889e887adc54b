// Registers one Google Benchmark per (pattern, mode, cq strategies, size) and runs them against a
// server.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "control/client_session.h"
#include "runner/suite_options.h"
#include "spec/spec_validation.h"
#include "spec/test_spec.h"
#include "verbs/verbs_error.h"

namespace rdmabench {

// Every benchmark the options ask for, in the order they run: pattern (at the sizes it
// accepts), mode, CQ choice, size, rate (lat only), QP count.
std::vector<TestSpec> expand_specs(const BenchmarkMatrix& matrix);

// Why a device with `limits` refuses a spec (spec_refusal), or "" when it takes it.
std::function<std::string(const TestSpec&)> refusal_by(const DeviceLimits& limits);

// With --pattern all, drops the patterns `refusal` refuses (it returns why, or "" to keep one)
// and returns a note per pattern dropped: "write_imm (siw1, driver siw: ...)". Without it, or
// when every pattern would go, drops nothing (each benchmark then says why it is refused).
std::vector<std::string> drop_refused_patterns(
    BenchmarkMatrix& matrix, const std::function<std::string(const TestSpec&)>& refusal);

// Drops the sizes beyond `mtu` bytes from every pattern (and the patterns left with none);
// returns the sizes dropped.
std::vector<uint64_t> cut_sizes_to_mtu(BenchmarkMatrix& matrix, uint64_t mtu);

// The iterations every benchmark is registered with: 1 with --duration (one timed window; its
// messages are in the counters), --iters, or none (0: Google Benchmark's min_time decides).
std::optional<uint64_t> registered_iterations(const RunLength& length);

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
