#include "engine/benchmark_suite.h"

#include <unistd.h>

#include <cmath>
#include <iostream>

#include "engine/run_counters.h"
#include "engine/timed_sample_room.h"

namespace rdmabench {

namespace {
// A timed window's verify run checks this many messages per stream.
constexpr uint64_t kVerifyMessages = 1000;
}  // namespace

// Room for every round trip a timed window can hold, from the fastest round trip the
// warm-up saw (timed_sample_room.h).
uint64_t BenchmarkSuite::timed_sample_room(const TestSpec& spec) const {
  uint64_t fastest = UINT64_MAX;
  const size_t per_thread = samples_.size() / spec.threads;
  for (uint32_t t = 0; t < spec.threads; ++t)
    for (uint64_t i = 0; i < std::min<uint64_t>(options_.warmup, per_thread); ++i)
      fastest = std::min(fastest, samples_[t * per_thread + i]);
  return rdmabench::timed_sample_room(options_.duration_ns, fastest);
}

BenchmarkSuite::BenchmarkSuite(SuiteOptions options, std::unique_ptr<ClientSession> session)
    : options_(std::move(options)), session_(std::move(session)) {}

size_t BenchmarkSuite::register_benchmarks() {
  std::vector<TestSpec> specs;
  for (const auto& [p, sizes] : options_.patterns)
    for (Mode m : options_.modes)
      for (const CqChoice& c : options_.cq_choices)
        for (uint64_t size : sizes)
          // --rate paces lat only: bw runs once, back to back.
          for (uint64_t rate : m == Mode::kLatency ? options_.rates : std::vector<uint64_t>{0})
            for (uint32_t qps : options_.qps) {
              TestSpec s = options_.base;
              s.pattern = p;
              s.mode = m;
              s.cq = c;
              s.size = size;
              s.rate = rate;
              s.qps = qps;
              s.threads = std::min(options_.threads, qps);
              s.bidir = options_.base.bidir && m == Mode::kBandwidth;
              specs.push_back(s);
            }
  total_ = specs.size();
  for (size_t i = 0; i < specs.size(); ++i) {
    const TestSpec spec = specs[i];
    auto* b = benchmark::RegisterBenchmark(
        spec.name().c_str(), [this, spec, i](benchmark::State& st) { run_one(st, spec, i); });
    b->UseManualTime()->Unit(benchmark::kMicrosecond);
    if (options_.duration_ns > 0) {
      b->Iterations(1);  // one timed window; its messages are in the counters
    } else if (options_.iterations) {
      b->Iterations(static_cast<benchmark::IterationCount>(*options_.iterations));
    }
  }
  return total_;
}

ClientSession& BenchmarkSuite::session() {
  if (!session_) {
    BootstrapOptions bo;
    bo.device = options_.device;
    bo.server_host = options_.host;
    bo.timeout = options_.timeout;
    session_ = connect_when_free(options_.host, options_.port, bo, options_.wait, std::cerr);
  }
  return *session_;
}

void BenchmarkSuite::fail(benchmark::State& state, const Error& e) {
  state.SkipWithError(e.what());
  if (static_cast<int>(e.exit_code()) > static_cast<int>(worst_)) worst_ = e.exit_code();
  std::cerr << "rdmabench: " << e.what() << "\n";
  session_.reset();  // start the next benchmark on a fresh control connection
}

void BenchmarkSuite::run_one(benchmark::State& state, const TestSpec& spec, size_t index) {
  if (!interrupted_ && options_.stop != nullptr) interrupted_ = options_.stop->pending();
  if (interrupted_) {
    state.SkipWithError("interrupted: not run");
    worst_ = std::max(worst_, ExitCode::kRuntime);
    return;
  }
  if (index != last_announced_) {
    last_announced_ = index;
    // Progress on stderr: one rewritten line on a terminal, one line per benchmark otherwise.
    std::cerr << (isatty(2) ? "\r\033[K" : "") << "[" << index + 1 << "/" << total_ << "] "
              << spec.name() << (isatty(2) ? "" : "\n") << std::flush;
  }
  const uint64_t n = static_cast<uint64_t>(state.max_iterations);
  try {
    ClientSession& s = session();
    if (s.current() == nullptr || s.current()->name() != spec.name()) s.setup(spec);
    const bool lat = spec.mode == Mode::kLatency;
    ClientRun warmup{{options_.warmup, 0, 0}, false, false, options_.cpus};
    // Before timing, never inside it: room for every sample of every thread.
    samples_.resize(lat ? std::max(n, options_.warmup) * spec.threads : 0);
    if (options_.warmup > 0) s.run(warmup, samples_);  // both sides run it; no figure uses it
    ClientRun request{{n, options_.duration_ns, options_.margin_ns}, false, false, options_.cpus};
    if (lat && request.length.timed_window())
      samples_.resize(timed_sample_room(spec) * spec.threads);
    RunResult r;
    RunCounters counters;
    while (state.KeepRunningBatch(static_cast<benchmark::IterationCount>(n))) {
      r = s.run(request, samples_);
      counters = run_counters(spec, r, samples_);
      // real_time is the time of one message (so that it is 1e6 / msgs_per_second us).
      state.SetIterationTime(counters.seconds_per_msg * static_cast<double>(n));
    }
    for (const auto& [name, value] : counters.counters) state.counters[name] = value;
    state.SetLabel(counters.label);
    if (!spec.verify) return;
    // --verify: the same messages once more (by count, even after a timed window), untimed,
    // every one checked by its receiver. The figures above come from runs that checked nothing.
    const uint64_t checked = request.length.timed_window() ? kVerifyMessages : n;
    samples_.resize(lat ? checked * spec.threads : 0);
    const RunResult v =
        s.run({{checked, 0, 0}, true, options_.debug_corrupt, options_.cpus}, samples_);
    const uint64_t errors = verify_errors(v);
    state.counters["verified_messages"] =
        static_cast<double>(checked * spec.qps * (spec.bidir ? 2 : 1));
    state.counters["verify_errors"] = static_cast<double>(errors);
    if (errors > 0) fail(state, verify_failure(spec, errors));
  } catch (const Error& e) {
    fail(state, e);
  } catch (const std::exception& e) {
    fail(state, Error(ExitCode::kInternal, e.what()));
  }
}

}  // namespace rdmabench
