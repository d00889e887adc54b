// Fills DeviceReports from verbs: one open device, or every device the verbs library sees.
#pragma once

#include <vector>

#include "core/device_report.h"

namespace rdmabench {

class Context;

// Queries one open device.
DeviceReport describe_device(const Context& context);

// Every device the verbs library sees (empty when there are none).
std::vector<DeviceReport> describe_all_devices();

}  // namespace rdmabench
