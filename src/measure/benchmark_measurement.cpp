#include "measure/benchmark_measurement.h"

#include <algorithm>

#include "measure/empty_window.h"
#include "measure/timed_sample_room.h"

namespace rdmabench {

CheckOutcome check_outcome(const TestSpec& spec, uint64_t per_stream, uint64_t errors) {
  return {per_stream * spec.qps * (spec.bidir ? 2 : 1), errors};
}

BenchmarkMeasurement::BenchmarkMeasurement(RunSource& source, const TestSpec& spec,
                                           MeasurePlan plan, std::vector<uint64_t>& samples)
    : source_(source), spec_(spec), plan_(std::move(plan)), samples_(samples) {}

// Room for every round trip a timed window can hold, from the fastest round trip the
// warm-up saw (timed_sample_room.h).
uint64_t BenchmarkMeasurement::timed_sample_room() const {
  uint64_t fastest = UINT64_MAX;
  const size_t per_thread = samples_.size() / spec_.threads;
  for (uint32_t t = 0; t < spec_.threads; ++t)
    for (uint64_t i = 0; i < std::min<uint64_t>(plan_.length.warmup, per_thread); ++i)
      fastest = std::min(fastest, samples_[t * per_thread + i]);
  return rdmabench::timed_sample_room(plan_.length.duration_ns, fastest);
}

void BenchmarkMeasurement::warm_up() {
  const bool lat = spec_.mode == Mode::kLatency;
  const RunLength warm_up = plan_.length.warm_up_run();
  // An open-loop thread keeps each of its connections' samples (by iterations: that many each).
  const uint64_t connections = spec_.open_loop() ? spec_.qps_per_thread() : 1;
  samples_.resize(lat ? std::max(plan_.length.iterations, warm_up.iterations) * connections *
                            spec_.threads
                      : 0);
  if (warm_up.iterations > 0) source_.run({warm_up, false, false, plan_.cpus}, samples_);
  if (!lat || !plan_.length.timed_window()) return;
  // Back to back, an open-loop connection is paced by its replies, as one ping-pong is.
  const uint64_t connections_room =
      spec_.rate > 0
          ? open_loop_sample_room(plan_.length.duration_ns, spec_.rate, spec_.qps_per_thread())
          : std::min(kMaxTimedSamples, saturating_mul(timed_sample_room(), spec_.qps_per_thread()));
  const uint64_t room = spec_.open_loop() ? connections_room : timed_sample_room();
  samples_.resize(room * spec_.threads);
}

RunCounters BenchmarkMeasurement::timed_run() {
  // --validate: the timed run is a checking run (and --debug-corrupt damages it, for tests).
  const bool check = spec_.validate;
  const RunResult r = source_.run({plan_.length, check, check && plan_.debug_corrupt, plan_.cpus,
                                   plan_.live, plan_.device_counters},
                                  samples_);
  if (check && verify_errors(spec_, r) > 0) throw validate_failure(spec_, r);
  require_counted(spec_, plan_.length, r);
  RunCounters counters = run_counters(spec_, r, samples_);
  if (check)
    counters.counters["validated_messages"] =
        static_cast<double>(rdmabench::validated_messages(spec_, r));
  return counters;
}

CheckOutcome BenchmarkMeasurement::check() {
  // By count, even after a timed window; the figures came from runs that checked nothing.
  const uint64_t per_stream =
      plan_.length.timed_window() ? kVerifyMessagesAfterWindow : plan_.length.iterations;
  samples_.resize(spec_.mode == Mode::kLatency ? per_stream * spec_.threads : 0);
  const RunResult v =
      source_.run({{per_stream, 0, 0}, true, plan_.debug_corrupt, plan_.cpus}, samples_);
  CheckOutcome checked = check_outcome(spec_, per_stream, verify_errors(spec_, v));
  // Over a transport that may lose messages, the target checked only what arrived.
  if (spec_.counts_arrivals()) checked.messages = total(v.server.received);
  return checked;
}

}  // namespace rdmabench
