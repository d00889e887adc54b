// How long one run goes, the one type of a run's length from the command line to the lane
// (run's suite, a measurement, the run message, each side's run, each lane): a number of
// messages per stream, or a timed window, after a warm-up.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "core/time_text.h"

namespace rdmabench {

// `iterations` messages per stream, or with a duration margin + duration + margin, counting
// only what completes inside the middle window (perftest's -D with its margins). A suite's
// length with neither leaves the count to Google Benchmark's min_time, batch by batch.
struct RunLength {
  uint64_t iterations = 0;
  uint64_t duration_ns = 0;  // 0: by iterations
  uint64_t margin_ns = 0;
  // Messages a measurement runs first, as a run of their own, in no figure (--warmup); not
  // part of a run message: each side runs the warm-up as the run it is.
  uint64_t warmup = 16;
  bool timed_window() const noexcept { return duration_ns > 0; }
  // A timed window's whole run: the window and a margin each side.
  uint64_t window_with_margins_ns() const noexcept { return duration_ns + 2 * margin_ns; }
  // The warm-up as a run of its own: that many messages, nothing before them.
  RunLength warm_up_run() const noexcept { return {warmup, 0, 0, 0}; }
};

// "a 2s timed window (500ms margins)", for the dry runs' plans.
inline std::string timed_window_text(const RunLength& length) {
  std::string text =
      "a " + time_text(std::chrono::nanoseconds(length.duration_ns)) + " timed window";
  if (length.margin_ns > 0)
    text += " (" + time_text(std::chrono::nanoseconds(length.margin_ns)) + " margins)";
  return text;
}

}  // namespace rdmabench
