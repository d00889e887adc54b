// Console output a perftest user reads at a glance: one table per pattern/mode/cq, with
// units in the column headers.
#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <vector>

#include "spec/test_spec.h"

namespace rdmabench {

class TableReporter : public benchmark::BenchmarkReporter {
 public:
  // `specs`: every registered benchmark (a row finds its size and table by its spec).
  TableReporter(std::string context_summary, const std::vector<TestSpec>& specs);
  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;

 private:
  void header(const TestSpec& spec);
  std::string summary_;
  std::map<std::string, TestSpec> specs_;  // by benchmark name
  std::string group_;
};

}  // namespace rdmabench
