// How long the search runs each point. By default every point runs the same timed window
// (--duration, with --margin before and after it in no figure, as `rdmabench run` runs one),
// so that a run's start-up and the last messages' drain weigh the same at every point and
// fall outside the figure: two points compared are alike but for their options. With --iters,
// messages per QP per timed run: --iters, but no more than kBytesPerRun of payload over all
// its QPs (and no fewer than kFewestIterations), so that a 1 MiB point, or 16 QPs at 64 KiB,
// costs the search what one QP at 64 KiB does; those runs differ in length from point to point.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "search/search_space.h"
#include "spec/run_length.h"

namespace rdmabench {

inline constexpr uint64_t kBytesPerRun = uint64_t{64} << 20;
inline constexpr uint64_t kFewestIterations = 64;

// The search's defaults: a timed window of half a second, a tenth of a second each side.
inline constexpr uint64_t kPointDurationNs = 500'000'000;
inline constexpr uint64_t kPointMarginNs = 100'000'000;

uint64_t iterations_at(const Point& point, uint64_t iterations);
// The run length of a point, given what the search was asked (a timed window: the same at
// every point, and one registered iteration, as `run --duration` runs it).
RunLength run_length_at(const Point& point, const RunLength& asked);
// `--duration 0.5 --margin 0.1`, or `--iters 1024`: what a run of the point is given.
std::string run_length_options(const Point& point, const RunLength& asked);

// The time a point may take before the search gives it up (its deadline, from the start of
// its measurement): twice what it needs with each step taking all of `timeout` (--timeout):
// connecting, setting up and the warm-up (four steps); each of `repetitions` runs, its window
// and margins (by iterations: kBytesPerRun at kSlowestLinkBitsPerSecond) and its last step.
inline constexpr double kSlowestLinkBitsPerSecond = 1e9;
std::chrono::milliseconds point_allowance(const RunLength& length, unsigned repetitions,
                                          std::chrono::milliseconds timeout);

}  // namespace rdmabench
