#include "search/point_length.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rdmabench {

namespace {

// Seconds as `run --duration` takes them: "0.5", "2", "0.125".
std::string seconds_text(uint64_t ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", static_cast<double>(ns) * 1e-9);
  return text;
}

}  // namespace

uint64_t iterations_at(const Point& point, uint64_t iterations) {
  const auto size = point.find("sizes");
  if (size == point.end() || ordered_value(size->second) == 0) return iterations;
  // --iters is per QP: 16 QPs at 64 KiB move as much as one at 1 MiB.
  const auto qps = point.find("qps");
  const uint64_t streams =
      qps == point.end() ? 1 : std::max<uint64_t>(1, ordered_value(qps->second));
  return std::min(iterations, std::max(kFewestIterations,
                                       kBytesPerRun / (ordered_value(size->second) * streams)));
}

RunLength run_length_at(const Point& point, const RunLength& asked) {
  RunLength at = asked;  // the window and the warm-up as asked
  at.iterations = asked.timed_window() ? 1 : iterations_at(point, asked.iterations);
  return at;
}

std::chrono::milliseconds point_allowance(const RunLength& length, unsigned repetitions,
                                          std::chrono::milliseconds timeout) {
  const double run_s = length.timed_window()
                           ? static_cast<double>(length.window_with_margins_ns()) * 1e-9
                           : static_cast<double>(kBytesPerRun) * 8 / kSlowestLinkBitsPerSecond;
  const double step_s = std::chrono::duration<double>(timeout).count();
  const double need_s = 4 * step_s + repetitions * (run_s + step_s);
  return std::chrono::milliseconds(static_cast<int64_t>(std::ceil(2 * need_s * 1000)));
}

std::string run_length_options(const Point& point, const RunLength& asked) {
  if (!asked.timed_window())
    return "--iters " + std::to_string(iterations_at(point, asked.iterations));
  return "--duration " + seconds_text(asked.duration_ns) +
         (asked.margin_ns > 0 ? " --margin " + seconds_text(asked.margin_ns) : "");
}

}  // namespace rdmabench
