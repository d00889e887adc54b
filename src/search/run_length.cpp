#include "search/run_length.h"

#include <algorithm>

namespace rdmabench {

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

}  // namespace rdmabench
