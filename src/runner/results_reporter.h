// The --out file. Google Benchmark's JSON layout (context, then one row per run), so that its
// own tools still read it, with what rdmabench adds: a typed context (numbers as numbers, the
// parameters as an object), the counter catalogue (counter_catalogue.h) in the context, and
// each row's spec as an object ("rdmabench_spec"), so that no tool has to parse a name.
#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "spec/test_spec.h"

namespace rdmabench {

// A row's spec as the results carry it: the wire spec (to_json) plus the benchmark's name and
// each side's CQ strategy.
nlohmann::json results_spec(const TestSpec& spec);

class ResultsReporter : public benchmark::BenchmarkReporter {
 public:
  // `context`: rdmabench's typed context; `specs`: every registered benchmark.
  ResultsReporter(nlohmann::json context, const std::vector<TestSpec>& specs);
  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;
  // {"context": ..., "benchmarks": [...]}: what Finalize writes.
  nlohmann::json document() const;

 private:
  nlohmann::json row(const Run& run) const;

  nlohmann::json context_;
  std::map<std::string, nlohmann::json> specs_;  // by benchmark name
  nlohmann::json rows_ = nlohmann::json::array();
};

// The same document, kept for another use (--metrics) rather than written when the run ends.
class CollectedResults : public ResultsReporter {
 public:
  using ResultsReporter::ResultsReporter;
  void Finalize() override {}
};

}  // namespace rdmabench
