#include "mesh/flow_measurement.h"

#include <atomic>
#include <latch>
#include <optional>
#include <thread>

#include "measure/benchmark_measurement.h"

namespace rdmabench {

namespace {

// One flow on its thread: ready (or failed) counted down on `ready`, its window after `go`.
class FlowRun {
 public:
  FlowRun(const TrafficFlow& flow, const TestSpec& spec, const PairRunOptions& run)
      : spec_(spec), run_(run), result_{spec.name(), {flow.client, flow.server}, {}, "",
                                        0,           to_string(spec.mode)} {}

  // `proceed` is read after `go`: false when the barrier failed, and no window runs.
  void operator()(const TrafficFlow& flow, const FlowConnect& connect, std::latch& ready,
                  std::latch& go, const std::atomic<bool>& proceed) {
    const bool set_up = capture_failure(result_, [&] {
      source_ = connect(flow);
      measurement_.emplace(*source_, spec_, pair_measure_plan(run_), samples_);
      measurement_->warm_up();
    });
    ready.count_down();
    go.wait();
    if (!set_up || !proceed) return;
    capture_failure(result_, [&] {
      result_.counters = measurement_->timed_run().counters;
      if (!spec_.verify) return;
      const CheckOutcome checked = measurement_->check();  // after the window, untimed
      if (checked.errors > 0) throw verify_failure(spec_, checked.errors);
      result_.counters.merge(checked.counters());
    });
  }

  PairResult take() { return std::move(result_); }

 private:
  const TestSpec& spec_;
  const PairRunOptions& run_;
  PairResult result_;
  std::unique_ptr<RunSource> source_;
  std::vector<uint64_t> samples_;
  std::optional<BenchmarkMeasurement> measurement_;
};

}  // namespace

std::vector<PairResult> measure_flows(const std::vector<TrafficFlow>& flows, const TestSpec& spec,
                                      const PairRunOptions& run, const FlowConnect& connect,
                                      const std::function<void()>& all_ready) {
  std::vector<std::unique_ptr<FlowRun>> runs;  // each stays where its measurement points
  for (const TrafficFlow& f : flows) runs.push_back(std::make_unique<FlowRun>(f, spec, run));
  std::latch ready(static_cast<std::ptrdiff_t>(flows.size()));
  std::latch go(1);
  std::atomic<bool> proceed{false};
  {
    std::vector<std::jthread> threads;
    try {
      for (size_t i = 0; i < flows.size(); ++i)
        threads.emplace_back([&, i] { (*runs[i])(flows[i], connect, ready, go, proceed); });
      ready.wait();
      all_ready();
      proceed = true;
    } catch (...) {
      // the threads not started count as ready; the started ones end before this leaves
      ready.count_down(static_cast<std::ptrdiff_t>(flows.size() - threads.size()));
      go.count_down();
      throw;
    }
    go.count_down();
  }  // every flow's thread joined
  std::vector<PairResult> results;
  for (auto& r : runs) results.push_back(r->take());
  return results;
}

}  // namespace rdmabench
