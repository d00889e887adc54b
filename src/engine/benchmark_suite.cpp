#include "engine/benchmark_suite.h"

#include <unistd.h>

#include <cmath>
#include <iostream>

#include "engine/latency_stats.h"

namespace rdmabench {

BenchmarkSuite::BenchmarkSuite(SuiteOptions options, std::unique_ptr<ClientSession> session)
    : options_(std::move(options)), session_(std::move(session)) {}

size_t BenchmarkSuite::register_benchmarks() {
  std::vector<TestSpec> specs;
  for (Pattern p : options_.patterns)
    for (Mode m : options_.modes)
      for (const CqChoice& c : options_.cq_choices)
        for (uint64_t size : options_.sizes)
          // --rate paces lat only: bw runs once, back to back.
          for (uint64_t rate : m == Mode::kLatency ? options_.rates : std::vector<uint64_t>{0}) {
            TestSpec s = options_.base;
            s.pattern = p;
            s.mode = m;
            s.cq = c;
            s.size = size;
            s.rate = rate;
            specs.push_back(s);
          }
  total_ = specs.size();
  for (size_t i = 0; i < specs.size(); ++i) {
    const TestSpec spec = specs[i];
    auto* b = benchmark::RegisterBenchmark(
        spec.name().c_str(), [this, spec, i](benchmark::State& st) { run_one(st, spec, i); });
    b->UseManualTime()->Unit(benchmark::kMicrosecond);
    if (options_.iterations)
      b->Iterations(static_cast<benchmark::IterationCount>(*options_.iterations));
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

namespace {

// Every counter is per message, and a message is what real_time is the time of: one one-way
// message where latency is half a round trip (two per round trip), one read (request and
// response) in read lat, one message in bw. So bytes = msgs x size, and real_time =
// 1e6 / msgs_per_second us.
void report_counters(benchmark::State& state, const TestSpec& spec, const RunResult& r,
                     std::vector<uint64_t>& samples, uint64_t n) {  // sorted here
  const bool half = spec.mode == Mode::kLatency && spec.half_round_trip();
  const double secs = r.client.seconds;
  const double msgs = static_cast<double>(n) * (half ? 2 : 1);
  auto& c = state.counters;
  c["bytes_per_second"] = secs > 0 ? msgs * static_cast<double>(spec.size) / secs : 0;
  c["msgs_per_second"] = secs > 0 ? msgs / secs : 0;
  for (const auto& [side, f] : {std::pair{"client", r.client_side}, {"server", r.server_side}}) {
    const std::string s = side;
    c[s + "_cpu_us_per_msg"] = static_cast<double>(f.cpu_ns) / 1000.0 / msgs;
    c[s + "_vcsw_per_msg"] = static_cast<double>(f.voluntary_switches) / msgs;
    c[s + "_ivcsw_per_msg"] = static_cast<double>(f.involuntary_switches) / msgs;
    c[s + "_wakeups_per_msg"] = static_cast<double>(f.wakeups) / msgs;
    c[s + "_empty_polls_per_msg"] = static_cast<double>(f.empty_polls) / msgs;
  }
  c["size"] = static_cast<double>(spec.size);
  if (spec.mode != Mode::kLatency) {
    state.SetLabel("bw=unidirectional stream");
    return;
  }
  const double span = r.client.span_seconds;
  c["offered_rate"] = static_cast<double>(spec.rate);  // round trips (reads) per second
  c["achieved_rate"] = span > 0 ? static_cast<double>(n) / span : 0;
  const LatencyStats st = compute_latency_stats({samples.data(), n}, half ? 0.5 : 1.0);
  c["lat_min_us"] = st.min_us;
  c["lat_mean_us"] = st.mean_us;
  c["lat_stddev_us"] = st.stddev_us;
  c["lat_p50_us"] = st.p50_us;
  c["lat_p90_us"] = st.p90_us;
  c["lat_p99_us"] = st.p99_us;
  c["lat_p999_us"] = st.p999_us;
  c["lat_max_us"] = st.max_us;
  c["half_round_trip"] = spec.half_round_trip() ? 1 : 0;
  state.SetLabel(spec.half_round_trip() ? "lat=half round trip" : "lat=full round trip");
}

}  // namespace

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
    // Before timing, never inside it.
    if (spec.mode == Mode::kLatency) samples_.resize(std::max(n, options_.warmup));
    if (options_.warmup > 0)  // both sides run it; its figures are dropped
      s.run(options_.warmup, {samples_.data(), spec.mode == Mode::kLatency ? options_.warmup : 0});
    RunResult r;
    while (state.KeepRunningBatch(static_cast<benchmark::IterationCount>(n))) {
      r = s.run(n, {samples_.data(), spec.mode == Mode::kLatency ? n : 0});
      const double scale = spec.mode == Mode::kLatency && spec.half_round_trip() ? 0.5 : 1.0;
      state.SetIterationTime(r.client.seconds * scale);
    }
    report_counters(state, spec, r, samples_, n);
    if (!spec.verify) return;
    // --verify: the same messages once more, untimed, every one checked by its receiver. The
    // figures above come from runs that checked nothing.
    const RunResult v = s.run(n, {samples_.data(), spec.mode == Mode::kLatency ? n : 0}, true,
                              options_.debug_corrupt);
    const uint64_t errors = v.client.verify_errors + v.server_verify_errors;
    state.counters["verified_messages"] = static_cast<double>(n);
    state.counters["verify_errors"] = static_cast<double>(errors);
    if (errors > 0)
      fail(state,
           Error(ExitCode::kVerification, spec.name() + ": --verify found " +
                                              std::to_string(errors) + " corrupt bytes/messages"));
  } catch (const Error& e) {
    fail(state, e);
  } catch (const std::exception& e) {
    fail(state, Error(ExitCode::kInternal, e.what()));
  }
}

}  // namespace rdmabench
