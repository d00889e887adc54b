// How one benchmark is measured, the same for `rdmabench run` and for each `mesh` pair: a
// warm-up that no figure uses, the timed runs, then (with --verify) a check run of the same
// messages, untimed, in which every receiver checks every message. The counters come from
// run_counters, and the check run's from check_counters, so both commands publish the same
// figures for the same runs.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "measure/run_counters.h"
#include "session/run_source.h"
#include "spec/test_spec.h"

namespace rdmabench {

struct MeasurePlan {
  RunLength length;             // each timed run: by iterations, or a timed window, after warmup
  std::vector<int> cpus;        // --cpus
  bool debug_corrupt = false;   // testing: the check run damages what the client sends
  LiveCounts* live = nullptr;   // timed runs count their sends here as they go (--report-every)
  bool device_counters = true;  // each timed run reads both sides' port counters (--counters)
};

// A timed window's check run checks this many messages per stream.
inline constexpr uint64_t kVerifyMessagesAfterWindow = 1000;

// What a check run found, as the row's counters say it.
struct CheckOutcome {
  uint64_t messages = 0;  // checked, over every QP and direction
  uint64_t errors = 0;    // corrupt bytes/messages
  std::map<std::string, double> counters() const {
    return {{"verified_messages", static_cast<double>(messages)},
            {"verify_errors", static_cast<double>(errors)}};
  }
};
// A check run of `per_stream` messages on every QP (both directions with --bidir).
CheckOutcome check_outcome(const TestSpec& spec, uint64_t per_stream, uint64_t errors);

class BenchmarkMeasurement {
 public:
  // `samples` is the caller's buffer, sized here before any timed run.
  BenchmarkMeasurement(RunSource& source, const TestSpec& spec, MeasurePlan plan,
                       std::vector<uint64_t>& samples);
  // The warm-up (both sides run it); then room for every sample the timed runs can take.
  void warm_up();
  // One timed run and its counters; with --validate, every message of it checked, and the
  // counters add validated_messages (every one passing, or it threw).
  // Throws Error(kRuntime) when a timed window counted nothing (empty_window.h), and
  // Error(kVerification) when a --validate check failed (naming the first bad message).
  RunCounters timed_run();
  // --verify: the check run, after the timed runs.
  CheckOutcome check();

 private:
  uint64_t timed_sample_room() const;

  RunSource& source_;
  const TestSpec& spec_;
  MeasurePlan plan_;
  std::vector<uint64_t>& samples_;
};

}  // namespace rdmabench
