// --metrics FILE of run, mesh and doctor: the families (openmetrics.h) written whole
// (output_file.h), with one rule for what a failed write does to the exit status.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/openmetrics.h"

namespace rdmabench {

// Writes `families` to `path` and says so on `log` ("<who>: metrics written to PATH"). When
// the file cannot be written, says why on `log` and returns kRuntime if `code` was 0 (the
// check's own results stand; a monitoring system would otherwise read a stale file as fresh);
// otherwise returns `code`.
int write_metrics_file(const std::string& path, const std::vector<MetricFamily>& families, int code,
                       std::ostream& log, std::string_view who);

}  // namespace rdmabench
