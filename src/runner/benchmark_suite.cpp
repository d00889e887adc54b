#include "runner/benchmark_suite.h"

#include <unistd.h>

#include <cmath>
#include <iostream>
#include <optional>

#include "measure/benchmark_measurement.h"
#include "measure/run_counters.h"
#include "runner/benchmark_filter.h"
#include "runner/interval_report.h"
#include "runner/progress_line.h"

namespace rdmabench {

BenchmarkSuite::BenchmarkSuite(SuiteOptions options, std::unique_ptr<ClientSession> session)
    : options_(std::move(options)), session_(std::move(session)) {
  if (session_) session_->use_sample_clock(options_.reporting.sample_clock);
}

std::optional<uint64_t> registered_iterations(const RunLength& length) {
  if (length.timed_window()) return 1;
  if (length.iterations > 0) return length.iterations;
  return std::nullopt;
}

size_t BenchmarkSuite::register_benchmarks() {
  specs_ = expand_specs(options_.matrix);
  selected_ = count_selected(specs_, options_.length, benchmark::GetBenchmarkFilter());
  ordinal_.assign(specs_.size(), 0);
  batch_scales_.assign(specs_.size(), BatchScale());
  for (size_t i = 0; i < specs_.size(); ++i) {
    const TestSpec spec = specs_[i];
    auto* b = benchmark::RegisterBenchmark(
        spec.name().c_str(), [this, spec, i](benchmark::State& st) { run_one(st, spec, i); });
    b->UseManualTime()->Unit(benchmark::kMicrosecond);
    if (const auto n = registered_iterations(options_.length))
      b->Iterations(static_cast<benchmark::IterationCount>(*n));
  }
  return specs_.size();
}

ClientSession& BenchmarkSuite::session() {
  if (!session_) {
    const PeerConnection& peer = options_.peer;
    session_ = connect_when_free(peer.address, peer.bootstrap_options(), peer.wait, std::cerr,
                                 peer.tls ? &*peer.tls : nullptr);
    session_->use_sample_clock(options_.reporting.sample_clock);
  }
  return *session_;
}

void BenchmarkSuite::fail(benchmark::State& state, const Error& e) {
  state.SkipWithError(e.what());
  if (static_cast<int>(e.exit_code()) > static_cast<int>(worst_)) worst_ = e.exit_code();
  clear_progress();
  std::cerr << ("rdmabench: " + std::string(e.what()) + "\n") << std::flush;  // one write: a line
  session_.reset();  // start the next benchmark on a fresh control connection
}

namespace {
// The figures the server's log shows of a timed run: what the table's row starts with.
ClientFigures server_log_figures(const TestSpec& spec, const RunCounters& run) {
  const auto& c = run.counters;
  ClientFigures f{static_cast<uint64_t>(c.at("msgs")), c.at("bytes_per_second"),
                  c.at("msgs_per_second"), std::nullopt, std::nullopt};
  if (spec.mode == Mode::kLatency) {
    f.lat_p50_us = c.at("lat_p50_us");
    f.lat_p99_us = c.at("lat_p99_us");
  }
  return f;
}

// An interval line of --report-every, on standard error, below a terminal's progress line.
void print_interval(const std::string& line) {
  clear_progress();
  std::cerr << ("rdmabench: " + line + "\n") << std::flush;
}
}  // namespace

void BenchmarkSuite::run_one(benchmark::State& state, const TestSpec& spec, size_t index) {
  if (!interrupted_ && options_.stop != nullptr) interrupted_ = options_.stop->pending();
  if (interrupted_) {
    state.SkipWithError("interrupted: not run");
    worst_ = std::max(worst_, ExitCode::kRuntime);
    return;
  }
  // Benchmarks are numbered in the order they first run, among those the filter selected.
  if (ordinal_[index] == 0) ordinal_[index] = ++started_;
  std::string progress = "[";
  progress += std::to_string(ordinal_[index]) + "/" + std::to_string(selected_) + "] ";
  show_progress(progress + spec.name());
  const uint64_t n = static_cast<uint64_t>(state.max_iterations);
  try {
    ClientSession& s = session();
    if (s.current() == nullptr || s.current()->name() != spec.name()) s.setup(spec);
    std::optional<LiveCounts> live;  // --report-every, bw: the client's sends as they go
    const SuiteReporting& reporting = options_.reporting;
    if (reporting.report_every.count() > 0 && spec.mode == Mode::kBandwidth)
      live.emplace(spec.threads);
    RunLength length = options_.length;
    // The batch Google Benchmark asks for (1 for a timed window), per QP where it grows them.
    const bool by_min_time = !registered_iterations(options_.length);
    length.iterations = by_min_time ? batch_scales_[index].iterations_for(n) : n;
    BenchmarkMeasurement m(s, spec,
                           {length, options_.placement.cpus, options_.debug_corrupt,
                            live ? &*live : nullptr, reporting.device_counters},
                           samples_);
    m.warm_up();
    RunCounters counters;
    PeakInterval peak;  // the best --report-every interval of every timed run
    while (state.KeepRunningBatch(static_cast<benchmark::IterationCount>(n))) {
      std::optional<IntervalReport> intervals;
      if (live)
        intervals.emplace(print_interval, spec.name(), spec.size, *live, reporting.report_every,
                          peak);
      counters = m.timed_run();
      // real_time is the time of one message (so that it is 1e6 / msgs_per_second us).
      state.SetIterationTime(counters.seconds_per_msg * static_cast<double>(n));
      s.report(server_log_figures(spec, counters));
    }
    for (const auto& [name, value] : counters.counters) state.counters[name] = value;
    const auto msgs = counters.counters.find("msgs");
    if (by_min_time && msgs != counters.counters.end())
      batch_scales_[index].counted(length.iterations, static_cast<uint64_t>(msgs->second));
    if (peak.bytes_per_second) state.counters["bw_peak_bytes_per_second"] = *peak.bytes_per_second;
    state.SetLabel(counters.label);
    if (!spec.verify) return;
    const CheckOutcome checked = m.check();
    for (const auto& [name, value] : checked.counters()) state.counters[name] = value;
    if (checked.errors > 0) fail(state, verify_failure(spec, checked.errors));
  } catch (const Error& e) {
    fail(state, e);
  } catch (const std::exception& e) {
    fail(state, Error(ExitCode::kInternal, e.what()));
  }
}

}  // namespace rdmabench
