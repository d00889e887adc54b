// --metrics FILE of run, mesh and doctor: the families (openmetrics.h) written whole
// (output_file.h), with its one rule for what a failed write does to the exit status.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/openmetrics.h"

namespace rdmabench {

// Writes `families` to `path` by write_output_file's rule (output_file.h): said on `log`; a
// file that cannot be written turns a clean `code` into kRuntime (a monitoring system would
// otherwise read a stale file as fresh).
int write_metrics_file(const std::string& path, const std::vector<MetricFamily>& families, int code,
                       std::ostream& log, std::string_view who);

}  // namespace rdmabench
