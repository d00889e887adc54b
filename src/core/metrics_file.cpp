#include "core/metrics_file.h"

#include "core/error.h"
#include "core/output_file.h"
#include "core/printable_text.h"

namespace rdmabench {

int write_metrics_file(const std::string& path, const std::vector<MetricFamily>& families, int code,
                       std::ostream& log, std::string_view who) {
  try {
    write_file_atomically(path, openmetrics_text(families), "--metrics");
  } catch (const Error& e) {
    log << who << ": " << e.what() << "\n";
    return code != 0 ? code : static_cast<int>(ExitCode::kRuntime);
  }
  log << who << ": metrics written to " << printable(path) << "\n";
  return code;
}

}  // namespace rdmabench
