// Where an RDMA device sits in this host, from sysfs: its PCI function, NUMA node, the CPUs
// local to it and its PCIe link (current and maximum speed and width). Read under a root
// ("/sys" on a real host, a fake tree in the tests) so that two-socket layouts, degraded links
// and devices without PCI (rxe) are tested without them.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rdmabench {

struct PcieLink {
  std::string speed;      // "8.0 GT/s PCIe" as sysfs says it
  std::string max_speed;  // the most the device and slot can train to
  int width = 0;          // lanes now (x8 is 8)
  int max_width = 0;
  bool below_maximum() const { return speed != max_speed || width < max_width; }
  // "8.0 GT/s x8 (maximum 16.0 GT/s x16)", or "16.0 GT/s x16 (its maximum)".
  std::string describe() const;
};

struct DeviceLocality {
  std::string device;
  std::string pci_address;     // "0000:3b:00.0"; "" when the device is not on PCI
  std::string through_netdev;  // rxe: the netdev it runs over ("" when it has none)
  int numa_node = -1;          // -1: sysfs gives none (not PCI, or one-node firmware)
  std::vector<int> local_cpus;
  std::optional<PcieLink> link;
  // "PCI 0000:3b:00.0", "rxe over veth0 (not a PCI device)", "not a PCI device".
  std::string where() const;
};

// The device's locality: /sys/class/infiniband/DEV/device is its PCI function; a software
// device (rxe) has none but names its netdev in `parent`, whose own device link is followed
// (rxe over a PCI NIC is as local as that NIC).
DeviceLocality read_device_locality(const std::filesystem::path& sys, const std::string& device);

struct CpuTopology {
  std::vector<int> online;                // /sys/devices/system/cpu/online
  std::map<int, std::vector<int>> nodes;  // node -> its CPUs (nodes with CPUs only)
};

CpuTopology read_cpu_topology(const std::filesystem::path& sys);

}  // namespace rdmabench
