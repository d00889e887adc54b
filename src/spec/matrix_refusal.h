// Whether a matrix's benchmarks are refused, and why: the relations across options that hold on
// any device (a chain of sends, both directions at once and a rate in Gb/s are bw settings; a
// Gb/s rate at each size within the most messages a second), then each benchmark's
// spec_refusal. `rdmabench run` throws the reason before it touches a device; `rdmabench search`
// leaves a point so refused out, with no exception.
#pragma once

#include <string>

#include "spec/benchmark_matrix.h"

namespace rdmabench {

// The first reason, or "" when every benchmark the options ask for is accepted.
std::string matrix_refusal(const BenchmarkMatrix& matrix);

}  // namespace rdmabench
