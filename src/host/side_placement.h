// One side's placement as a run applies it: the device's locality read from /sys, the CPUs
// and memory node chosen (choose_placement), the memory policy set on the calling thread (the
// one that registers the buffers and starts the run's threads, which inherit it), and the
// fields each side reports for the context.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "host/cpu_placement.h"

namespace rdmabench {

struct SidePlacement {
  DeviceLocality device;
  CpuPlacement placement;
  // {cpus, cpu_choice, numa_node, memory_node, pci, pcie_link}: a list as "16,17" ("" when
  // not pinned), null where unknown.
  nlohmann::json fields() const;
};

// Reads /sys for `device`, chooses, and sets the calling thread's memory policy (a refusal is
// added to the reason, never fatal). Throws Error(kUsage) for a --numa node without CPUs.
SidePlacement place_this_side(const std::string& device, const PlacementRequest& request);

}  // namespace rdmabench
