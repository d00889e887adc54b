#include "core/metrics_file.h"

#include "core/output_file.h"

namespace rdmabench {

int write_metrics_file(const std::string& path, const std::vector<MetricFamily>& families, int code,
                       std::ostream& log, std::string_view who) {
  return write_output_file(path, openmetrics_text(families), "--metrics", code, log, who);
}

}  // namespace rdmabench
