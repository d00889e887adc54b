// `run --output bandwidth|message_rate|latency`, as perftest's --output: one number per
// benchmark row on standard output, for a script to read (the table goes to standard error).
#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "spec/test_spec.h"

namespace rdmabench {

// Which figure, and what it is: bandwidth in Gb/s (the table's BW avg[Gb/s]), message_rate in
// Mpps (rate[Mpps]), latency in usec (t_p50, perftest's typical latency).
enum class OutputFigure { kBandwidth, kMessageRate, kLatency };

// "bandwidth", "message_rate", "latency"; nullopt for any other word.
std::optional<OutputFigure> parse_output_figure(const std::string& word);
const char* output_figure_name(OutputFigure figure);
// The mode whose rows have `figure` (bw for bandwidth and message_rate, lat for latency).
Mode mode_of(OutputFigure figure);

class FigureReporter : public benchmark::BenchmarkReporter {
 public:
  FigureReporter(std::ostream& out, OutputFigure figure, const std::vector<TestSpec>& specs);
  bool ReportContext(const Context&) override { return true; }
  // One line per measured row of the figure's mode: the number alone. A failed row prints
  // nothing (the exit status says it failed).
  void ReportRuns(const std::vector<Run>& runs) override;

 private:
  std::ostream& out_;
  OutputFigure figure_;
  std::map<std::string, TestSpec> specs_;  // by benchmark name
};

}  // namespace rdmabench
