// One side's placement as a run applies it: the device's locality read from /sys, the CPUs
// and memory node chosen (choose_placement), the memory policy set on the calling thread (the
// one that registers the buffers and starts the run's threads, which inherit it), and the
// facts each side reports for the context.
#pragma once

#include <optional>
#include <string>

#include "host/cpu_placement.h"

namespace rdmabench {

// What a side reports of where it runs (nullopt where it does not know).
struct PlacementFacts {
  std::string cpus;                      // its CPUs as a list, "16,17" ("" when not pinned)
  std::string cpu_choice;                // why those
  std::optional<int> numa_node;          // the device's
  std::optional<int> memory_node;        // where its buffers are
  std::optional<std::string> pci;        // the device's PCI address
  std::optional<std::string> pcie_link;  // the device's PCIe link, as it runs and could
};

struct SidePlacement {
  DeviceLocality device;
  CpuPlacement placement;
  PlacementFacts facts() const;
};

// Reads /sys for `device`, chooses, and sets the calling thread's memory policy (a refusal is
// added to the reason, never fatal). Throws Error(kUsage) for a --numa node without CPUs.
SidePlacement place_this_side(const std::string& device, const PlacementRequest& request);

}  // namespace rdmabench
