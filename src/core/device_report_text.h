// Human-readable table form of DeviceReport.
#pragma once

#include <ostream>
#include <vector>

#include "core/device_report.h"

namespace rdmabench {

void print_devices(std::ostream& out, const std::vector<DeviceReport>& devices);

}  // namespace rdmabench
