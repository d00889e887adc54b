// A Google Benchmark row's counter by name, for the reporters that read rows (the table, the
// --min-bw/--max-lat judge): 0 when the row has none, as a failed row has none.
#pragma once

#include <benchmark/benchmark.h>

#include <string>

namespace rdmabench {

inline double run_counter(const benchmark::BenchmarkReporter::Run& run, const std::string& name) {
  const auto it = run.counters.find(name);
  return it == run.counters.end() ? 0.0 : it->second.value;
}

}  // namespace rdmabench
