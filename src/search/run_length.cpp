#include "search/run_length.h"

#include <algorithm>

#include "spec/test_spec.h"

namespace rdmabench {

uint64_t iterations_at(const Point& point, uint64_t iterations) {
  const auto it = point.find("sizes");
  if (it == point.end()) return iterations;
  const std::optional<uint64_t> size = parse_size(it->second);
  if (!size || *size == 0) return iterations;
  return std::min(iterations, std::max(kFewestIterations, kBytesPerRun / *size));
}

}  // namespace rdmabench
