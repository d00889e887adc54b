#include "host/side_placement.h"

#include "core/cpu_ranges.h"
#include "host/memory_policy.h"

namespace rdmabench {

PlacementFacts SidePlacement::facts() const {
  auto known = [](int node) { return node >= 0 ? std::optional<int>(node) : std::nullopt; };
  return {.cpus = cpu_list_text(placement.cpus),
          .cpu_choice = placement.reason,
          .numa_node = known(device.numa_node),
          .memory_node = known(placement.memory_node),
          .pci = device.pci_address.empty() ? std::nullopt
                                            : std::optional<std::string>(device.pci_address),
          .pcie_link =
              device.link ? std::optional<std::string>(device.link->describe()) : std::nullopt};
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
