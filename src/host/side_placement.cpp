#include "host/side_placement.h"

#include "core/cpu_ranges.h"
#include "host/memory_policy.h"

namespace rdmabench {

nlohmann::json SidePlacement::fields() const {
  auto or_null = [](bool known, const auto& value) {
    return known ? nlohmann::json(value) : nlohmann::json(nullptr);
  };
  return {{"cpus", cpu_list_text(placement.cpus)},
          {"cpu_choice", placement.reason},
          {"numa_node", or_null(device.numa_node >= 0, device.numa_node)},
          {"memory_node", or_null(placement.memory_node >= 0, placement.memory_node)},
          {"pci", or_null(!device.pci_address.empty(), device.pci_address)},
          {"pcie_link", device.link ? nlohmann::json(device.link->describe()) : nullptr}};
}

SidePlacement place_this_side(const std::string& device, const PlacementRequest& request) {
  SidePlacement side;
  side.device = read_device_locality("/sys", device);
  side.placement = choose_placement(side.device, read_cpu_topology("/sys"), request);
  const std::string refused = prefer_memory_node(side.placement.memory_node);
  if (!refused.empty()) {
    side.placement.reason += " (memory left to the kernel: " + refused + ")";
    side.placement.memory_node = -1;
  }
  return side;
}

}  // namespace rdmabench
