// A search point as the request `rdmabench run` would build from the same options, set value by
// value through each dimension's typed setter (no command line is written and parsed again), and
// whether it is one benchmark the options accept, said without an exception.
#pragma once

#include <string>
#include <variant>

#include "search/search_space.h"
#include "spec/benchmark_matrix.h"

namespace rdmabench {

// `base` (the connection's path settings, a run's defaults) with every value of `point` that is not
// its dimension's fallback set on it, as run takes the options that options_text writes.
BenchmarkMatrix request_at(const SearchSpace& space, const Point& point, BenchmarkMatrix base);

// The one benchmark `request` asks for, or why it is refused: matrix_refusal's reason (run's,
// before a device is touched).
std::variant<TestSpec, std::string> one_benchmark(const BenchmarkMatrix& request);

}  // namespace rdmabench
