#include "host/device_locality.h"

#include "core/cpu_ranges.h"
#include "host/sysfs_file.h"

namespace rdmabench {

namespace fs = std::filesystem;

namespace {

int int_attribute(const fs::path& file, int fallback) {
  const std::string text = first_line(file);
  if (text.empty() || text.find_first_not_of("-0123456789") != std::string::npos) return fallback;
  try {
    return std::stoi(text);
  } catch (const std::exception&) {
    return fallback;
  }
}

std::vector<int> cpus_of(const fs::path& file) {
  auto parsed = parse_cpu_ranges(first_line(file));
  if (auto* cpus = std::get_if<std::vector<int>>(&parsed)) return std::move(*cpus);
  return {};
}

// "8.0 GT/s PCIe" -> "8.0 GT/s" (older kernels write no suffix).
std::string speed_text(const std::string& sysfs) {
  const auto suffix = sysfs.find(" PCIe");
  return suffix == std::string::npos ? sysfs : sysfs.substr(0, suffix);
}

std::optional<PcieLink> read_link(const fs::path& function) {
  PcieLink link{speed_text(first_line(function / "current_link_speed")),
                speed_text(first_line(function / "max_link_speed")),
                int_attribute(function / "current_link_width", 0),
                int_attribute(function / "max_link_width", 0)};
  if (link.speed.empty() || link.max_speed.empty() || link.width <= 0 || link.max_width <= 0)
    return std::nullopt;
  if (link.speed.starts_with("Unknown")) return std::nullopt;  // a virtual function's
  return link;
}

// Fills the PCI part from `function` (a device link) when it resolves to a PCI function.
void read_pci_function(const fs::path& function, DeviceLocality& where) {
  std::error_code ec;
  const fs::path real = fs::canonical(function, ec);
  if (ec || !fs::exists(real / "vendor")) return;  // not a PCI function
  where.pci_address = real.filename().string();
  where.numa_node = int_attribute(real / "numa_node", -1);
  where.local_cpus = cpus_of(real / "local_cpulist");
  where.link = read_link(real);
}

}  // namespace

std::string PcieLink::describe() const {
  const std::string now = speed + " x" + std::to_string(width);
  if (!below_maximum()) return now + " (its maximum)";
  return now + " (maximum " + max_speed + " x" + std::to_string(max_width) + ")";
}

std::string DeviceLocality::where() const {
  if (!pci_address.empty())
    return "PCI " + pci_address +
           (through_netdev.empty() ? "" : " (through " + through_netdev + ")");
  if (!through_netdev.empty()) return "over " + through_netdev + ", not a PCI device";
  return "not a PCI device";
}

DeviceLocality read_device_locality(const fs::path& sys, const std::string& device) {
  DeviceLocality where;
  where.device = device;
  const fs::path ib = sys / "class" / "infiniband" / device;
  if (fs::exists(ib / "device")) {
    read_pci_function(ib / "device", where);
    return where;
  }
  where.through_netdev = first_line(ib / "parent");
  if (!where.through_netdev.empty())
    read_pci_function(sys / "class" / "net" / where.through_netdev / "device", where);
  return where;
}

CpuTopology read_cpu_topology(const fs::path& sys) {
  CpuTopology topology;
  topology.online = cpus_of(sys / "devices" / "system" / "cpu" / "online");
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(sys / "devices" / "system" / "node", ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("node") || name.size() == 4) continue;
    if (name.find_first_not_of("0123456789", 4) != std::string::npos) continue;
    std::vector<int> cpus = cpus_of(entry.path() / "cpulist");
    if (!cpus.empty()) topology.nodes[std::stoi(name.substr(4))] = std::move(cpus);
  }
  return topology;
}

}  // namespace rdmabench
