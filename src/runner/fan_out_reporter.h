// Google Benchmark takes one display reporter (and one file reporter for --benchmark_out);
// this one hands every call on to several: the table, --json's results, the --min-bw and
// --max-lat judge.
#pragma once

#include <benchmark/benchmark.h>

#include <vector>

namespace rdmabench {

class FanOutReporter : public benchmark::BenchmarkReporter {
 public:
  explicit FanOutReporter(std::vector<benchmark::BenchmarkReporter*> to) : to_(std::move(to)) {}
  bool ReportContext(const Context& context) override {
    bool ok = true;
    for (auto* r : to_) ok = r->ReportContext(context) && ok;
    return ok;
  }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (auto* r : to_) r->ReportRuns(runs);
  }
  void Finalize() override {
    for (auto* r : to_) r->Finalize();
  }

 private:
  std::vector<benchmark::BenchmarkReporter*> to_;
};

}  // namespace rdmabench
