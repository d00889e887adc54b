#include "cli/point_request.h"

#include "cli/search_dimensions.h"
#include "spec/matrix_refusal.h"

namespace rdmabench {

BenchmarkMatrix request_at(const SearchSpace& space, const Point& point, BenchmarkMatrix base) {
  for (const Dimension& d : space.dimensions()) {
    const auto it = point.find(d.option);
    if (it == point.end() || !d.given_for(it->second)) continue;
    point_setter(d.option)(base, it->second);
  }
  // A named pattern runs every size given (one it refuses is then the point's refusal).
  for (auto& [pattern, sizes] : base.patterns) sizes = base.sizes;
  return base;
}

std::variant<TestSpec, std::string> one_benchmark(const BenchmarkMatrix& request) {
  if (std::string why = matrix_refusal(request); !why.empty()) return why;
  std::vector<TestSpec> specs = expand_specs(request);
  if (specs.size() != 1) return "the point is " + std::to_string(specs.size()) + " benchmarks";
  return std::move(specs.front());
}

}  // namespace rdmabench
