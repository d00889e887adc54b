#include "host/side_placement.h"

#include "core/cpu_ranges.h"
#include "host/memory_policy.h"

namespace rdmabench {

PlacementFacts SidePlacement::facts() const {
  PlacementFacts facts{cpu_list_text(placement.cpus), placement.reason};
  if (device.numa_node >= 0) facts.numa_node = device.numa_node;
  if (placement.memory_node >= 0) facts.memory_node = placement.memory_node;
  if (!device.pci_address.empty()) facts.pci = device.pci_address;
  if (device.link) facts.pcie_link = device.link->describe();
  return facts;
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
