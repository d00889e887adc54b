// JSON form of DeviceReport (the schema of `rdmabench devices --json`).
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "core/device_report.h"

namespace rdmabench {

nlohmann::json to_json(const GidEntry& gid);
nlohmann::json to_json(const PortReport& port);
nlohmann::json to_json(const DeviceReport& device);
// {"schema": ..., "devices": [...]}
nlohmann::json devices_document(const std::vector<DeviceReport>& devices);

}  // namespace rdmabench
