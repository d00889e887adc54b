#include "runner/figure_reporter.h"

#include <cstdio>

#include "runner/run_counter.h"

namespace rdmabench {

std::optional<OutputFigure> parse_output_figure(const std::string& word) {
  for (const OutputFigure f :
       {OutputFigure::kBandwidth, OutputFigure::kMessageRate, OutputFigure::kLatency})
    if (word == output_figure_name(f)) return f;
  return std::nullopt;
}

const char* output_figure_name(OutputFigure figure) {
  switch (figure) {
    case OutputFigure::kBandwidth:
      return "bandwidth";
    case OutputFigure::kMessageRate:
      return "message_rate";
    case OutputFigure::kLatency:
      break;
  }
  return "latency";
}

Mode mode_of(OutputFigure figure) {
  return figure == OutputFigure::kLatency ? Mode::kLatency : Mode::kBandwidth;
}

FigureReporter::FigureReporter(std::ostream& out, OutputFigure figure,
                               const std::vector<TestSpec>& specs)
    : out_(out), figure_(figure) {
  for (const TestSpec& s : specs) specs_.emplace(s.name(), s);
}

void FigureReporter::ReportRuns(const std::vector<Run>& runs) {
  for (const Run& run : runs) {
    const auto found = specs_.find(run.run_name.function_name);
    if (found == specs_.end() || found->second.mode != mode_of(figure_) || run.error_occurred ||
        run.run_type != Run::RT_Iteration)
      continue;
    char text[64];
    if (figure_ == OutputFigure::kBandwidth)
      std::snprintf(text, sizeof(text), "%.3f", run_counter(run, "bytes_per_second") * 8 / 1e9);
    else if (figure_ == OutputFigure::kMessageRate)
      std::snprintf(text, sizeof(text), "%.6f", run_counter(run, "msgs_per_second") / 1e6);
    else
      std::snprintf(text, sizeof(text), "%.2f", run_counter(run, "lat_p50_us"));
    out_ << text << "\n" << std::flush;
  }
}

}  // namespace rdmabench
