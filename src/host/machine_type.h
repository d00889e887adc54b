// This host's machine type as its firmware names it: DMI's product name, which
// `dmidecode -s system-product-name` prints and fleet health checks key their thresholds by
// ("Standard_ND96asr_v4", "PowerEdge XE9680").
#pragma once

#include <filesystem>
#include <string>

namespace rdmabench {

// The first line of SYS/class/dmi/id/product_name, spaces trimmed, at most 256 bytes; "" when
// there is none (a virtual machine without DMI, a container without /sys). `sys` is "/sys" but
// for the tests.
std::string machine_type(const std::filesystem::path& sys = "/sys");

}  // namespace rdmabench
