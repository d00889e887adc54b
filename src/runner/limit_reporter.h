// Judges each row against --min-bw and --max-lat as it comes (pass_limits.h), and says at the
// end which rows missed, with their figures.
#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "runner/pass_limits.h"

namespace rdmabench {

class LimitReporter : public benchmark::BenchmarkReporter {
 public:
  LimitReporter(std::ostream& out, PassLimits limits, const std::vector<TestSpec>& specs);
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;
  // At least one row was judged and none missed.
  bool passed() const { return judged_ > 0 && missed_.empty(); }

 private:
  std::ostream& out_;
  PassLimits limits_;
  std::map<std::string, TestSpec> specs_;  // by benchmark name
  size_t judged_ = 0;
  std::vector<std::string> missed_;  // "write/bw/busy/65536: 12.4 Gb/s, below --min-bw 25"
};

}  // namespace rdmabench
