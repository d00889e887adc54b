#include "host/cpu_placement.h"

#include <algorithm>

#include "core/cpu_ranges.h"
#include "core/error.h"

namespace rdmabench {

namespace {

std::string node_text(int node) {
  return "NUMA node " + std::to_string(node);
}

// Whether every CPU of `cpus` is one of `local`.
bool all_within(const std::vector<int>& cpus, const std::vector<int>& local) {
  return std::ranges::all_of(cpus,
                             [&](int c) { return std::ranges::find(local, c) != local.end(); });
}

CpuPlacement from_cpus_option(const DeviceLocality& device, const PlacementRequest& request) {
  CpuPlacement p{request.cpus, -1, "--cpus " + cpu_list_text(request.cpus)};
  if (request.numa && *request.numa != kNumaOff) {
    p.memory_node = *request.numa;
    p.reason += ", memory on --numa's " + node_text(*request.numa);
  } else if (device.numa_node >= 0 && !request.numa) {
    p.memory_node = device.numa_node;
    p.reason += ", memory on " + device.device + "'s " + node_text(device.numa_node);
  }
  if (device.numa_node >= 0 && !device.local_cpus.empty() &&
      !all_within(request.cpus, device.local_cpus))
    p.reason += " (not all local to " + device.device + ", which is on " +
                node_text(device.numa_node) + ")";
  return p;
}

CpuPlacement from_numa_option(const DeviceLocality& device, const CpuTopology& topology, int node) {
  if (node == kNumaOff) return {{}, -1, "--numa off: not pinned, memory where the kernel puts it"};
  const auto it = topology.nodes.find(node);
  if (it == topology.nodes.end()) {
    std::string known;
    for (const auto& [n, cpus] : topology.nodes)
      known += (known.empty() ? "" : ", ") + std::to_string(n);
    throw Error(ExitCode::kUsage, "--numa " + std::to_string(node) +
                                      ": this host has no such node with CPUs (nodes: " +
                                      (known.empty() ? "none reported" : known) + ")");
  }
  std::string reason = "--numa " + std::to_string(node) + ": its CPUs " + cpu_list_text(it->second);
  if (device.numa_node >= 0 && device.numa_node != node)
    reason += " (" + device.device + " is on " + node_text(device.numa_node) + ")";
  return {it->second, node, reason};
}

CpuPlacement from_device(const DeviceLocality& device, const CpuTopology& topology) {
  const std::string dev = device.device + " (" + device.where() + ")";
  if (device.numa_node < 0) return {{}, -1, dev + " reports no NUMA node: not pinned"};
  if (topology.nodes.size() <= 1)
    return {{},
            -1,
            dev + " is on " + node_text(device.numa_node) +
                ", this host's only one: every CPU is local, not pinned"};
  std::vector<int> cpus = device.local_cpus;
  if (cpus.empty()) {
    const auto it = topology.nodes.find(device.numa_node);
    if (it != topology.nodes.end()) cpus = it->second;
  }
  if (cpus.empty())
    return {
        {}, -1, dev + " is on " + node_text(device.numa_node) + ", which has no CPUs: not pinned"};
  return {cpus, device.numa_node,
          dev + " is on " + node_text(device.numa_node) + ": its CPUs " + cpu_list_text(cpus) +
              ", memory there"};
}

}  // namespace

CpuPlacement choose_placement(const DeviceLocality& device, const CpuTopology& topology,
                              const PlacementRequest& request) {
  if (!request.cpus.empty()) return from_cpus_option(device, request);
  if (request.numa) return from_numa_option(device, topology, *request.numa);
  return from_device(device, topology);
}

}  // namespace rdmabench
