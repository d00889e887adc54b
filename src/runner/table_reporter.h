// Console output a perftest user reads at a glance: one table per pattern/mode/cq, with
// units in the column headers.
#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "spec/test_spec.h"

namespace rdmabench {

// The lines above a table's rows: its name, what its figures are, the column names; `bw_peak`:
// a bw table's last column is BW peak[MiB/s] (run --report-every: the best interval).
std::string table_header(const TestSpec& spec, bool bw_peak = false);
// One row: counted messages (bw) or round trips (lat), and the figures; an aggregate row
// (mean, median, ...) names its statistic instead of the count. A peak no interval measured
// shows as "-".
std::string table_row(const TestSpec& spec, const benchmark::BenchmarkReporter::Run& run,
                      bool bw_peak = false);

class TableReporter : public benchmark::BenchmarkReporter {
 public:
  // `out`: where the table goes (standard output, or standard error when --json takes
  // standard output); `specs`: every registered benchmark (a row finds its spec by name).
  // `bw_peak`: bw tables have the BW peak column (run --report-every).
  TableReporter(std::ostream& out, std::string context_summary, const std::vector<TestSpec>& specs,
                bool bw_peak = false);
  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;

 private:
  std::ostream& out_;
  std::string summary_;
  std::map<std::string, TestSpec> specs_;  // by benchmark name
  std::string group_;
  bool bw_peak_ = false;
};

}  // namespace rdmabench
