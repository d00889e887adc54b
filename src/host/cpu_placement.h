// Where a side's threads run and its buffers live: by default on the CPUs and memory of the
// NUMA node its device hangs off (as perftest does), overridden by --cpus or --numa, and with
// the reason said, for the context.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "host/device_locality.h"

namespace rdmabench {

// --numa: a node, or off (kNumaOff: neither pinned nor memory placed).
inline constexpr int kNumaOff = -1;

struct PlacementRequest {
  std::vector<int> cpus;    // --cpus (empty: not given)
  std::optional<int> numa;  // --numa N or kNumaOff (nullopt: not given)
};

struct CpuPlacement {
  std::vector<int> cpus;  // thread t runs on cpus[t % size]; empty: not pinned
  int memory_node = -1;   // buffers preferred on this node; -1: the kernel's default
  std::string reason;     // "mlx5_0 is on NUMA node 1 (PCI 0000:3b:00.0): its CPUs 16-31"
};

// The choice. Throws Error(kUsage) when --numa names a node without CPUs.
CpuPlacement choose_placement(const DeviceLocality& device, const CpuTopology& topology,
                              const PlacementRequest& request);

}  // namespace rdmabench
