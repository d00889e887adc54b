// Console output a perftest user reads at a glance: one table per pattern/mode/cq, with
// units in the column headers.
#pragma once

#include <benchmark/benchmark.h>

#include <string>

namespace rdmabench {

class TableReporter : public benchmark::BenchmarkReporter {
 public:
  explicit TableReporter(std::string context_summary) : summary_(std::move(context_summary)) {}
  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;

 private:
  void header(const std::string& group, bool latency);
  std::string summary_;
  std::string group_;
};

}  // namespace rdmabench
