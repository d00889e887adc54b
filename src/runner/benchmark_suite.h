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

#include "runner/batch_scale.h"
#include "runner/suite_options.h"
#include "session/client_session.h"
#include "spec/spec_validation.h"
#include "spec/test_spec.h"
#include "verbs/verbs_error.h"

namespace rdmabench {

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
  size_t selected_ = 0;                   // how many of specs_ --benchmark_filter selects
  std::vector<BatchScale> batch_scales_;  // per spec: min_time's batches into per-QP counts
  std::vector<size_t> ordinal_;  // per spec: its number in the progress line (0: not yet run)
  size_t started_ = 0;
  bool interrupted_ = false;
};

}  // namespace rdmabench
