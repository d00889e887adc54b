#include "search/run_length.h"

#include <algorithm>

#include "spec/test_spec.h"

namespace rdmabench {

uint64_t iterations_at(const Point& point, uint64_t iterations) {
  const auto it = point.find("sizes");
  if (it == point.end()) return iterations;
  const std::optional<uint64_t> size = parse_size(it->second);
  if (!size || *size == 0) return iterations;
  // --iters is per QP: 16 QPs at 64 KiB move as much as one at 1 MiB.
  uint64_t qps = 1;
  if (const auto q = point.find("qps"); q != point.end())
    qps = std::max<uint64_t>(1, parse_size(q->second).value_or(1));
  return std::min(iterations, std::max(kFewestIterations, kBytesPerRun / (*size * qps)));
}

}  // namespace rdmabench
