#include "runner/limit_reporter.h"

#include "core/error.h"

namespace rdmabench {

LimitReporter::LimitReporter(std::ostream& out, PassLimits limits,
                             const std::vector<TestSpec>& specs)
    : out_(out), limits_(std::move(limits)) {
  for (const TestSpec& s : specs) specs_.emplace(s.name(), s);
}

void LimitReporter::ReportRuns(const std::vector<Run>& runs) {
  for (const Run& run : runs) {
    const auto found = specs_.find(run.run_name.function_name);
    if (found == specs_.end() || !judges(limits_, found->second, run)) continue;
    ++judged_;
    const std::string why = missed_limit(limits_, found->second, run);
    if (!why.empty()) missed_.push_back(found->first + ": " + why);
  }
}

void LimitReporter::Finalize() {
  for (const std::string& m : missed_) out_ << "rdmabench: FAIL " << m << "\n";
  if (judged_ == 0)
    out_ << "rdmabench: FAIL: no run gave a figure to judge by the limits given\n";
  else if (missed_.empty())
    out_ << "rdmabench: PASS: all " << judged_ << " judged runs within the limits given\n";
  else
    out_ << "rdmabench: " << missed_.size() << " of " << judged_
         << " judged runs missed a limit (exit " << static_cast<int>(ExitCode::kLimitMissed)
         << ")\n";
  out_ << std::flush;
}

}  // namespace rdmabench
