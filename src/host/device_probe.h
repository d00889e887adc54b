// Fills DeviceReports from verbs: one open device, or every device the verbs library sees.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/device_report.h"

namespace rdmabench {

class Context;

// The kernel driver behind `device` (under `sysfs`, /sys on a host): the device/driver link of
// a device on a bus (mlx5_core, irdma, cxgb4), else the software device its vendor id names
// (rxe, siw), else "unknown".
std::string driver_of(const std::filesystem::path& sysfs, const std::string& device,
                      uint32_t vendor_id);

// The netdev whose MAC an iWARP port's GID was made from (siw's GID is the MAC followed by
// zeros; its node GUID is the EUI-64 with the universal/local bit flipped): the one under
// sysfs/class/net whose address matches; empty when none does.
std::string netdev_of_mac_gid(const std::filesystem::path& sysfs, const RawGid& gid);

// Queries one open device.
DeviceReport describe_device(const Context& context);

// Every device the verbs library sees (empty when there are none).
std::vector<DeviceReport> describe_all_devices();

}  // namespace rdmabench
