// A sysfs look-alike in a temporary folder, for the tests of what rdmabench reads from /sys:
// a host of two NUMA nodes (CPUs 0-3 and 4-7) with a PCIe NIC on node 1, and what a test
// adds (a degraded link, a software device over a netdev).
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace rdmabench::testing {

class FakeSysfsTree {
 public:
  FakeSysfsTree()
      : root_(
            std::filesystem::temp_directory_path() /
            ("rdmabench-fake-sys-" + std::to_string(getpid()) + "-" + std::to_string(next_id()))) {
    std::filesystem::remove_all(root_);
  }
  ~FakeSysfsTree() { std::filesystem::remove_all(root_); }
  FakeSysfsTree(const FakeSysfsTree&) = delete;
  FakeSysfsTree& operator=(const FakeSysfsTree&) = delete;

  const std::filesystem::path& root() const { return root_; }

  void write(const std::string& rel, const std::string& text) const {
    std::filesystem::create_directories((root_ / rel).parent_path());
    std::ofstream(root_ / rel) << text << "\n";
  }
  void link(const std::string& rel, const std::string& target) const {
    std::filesystem::create_directories((root_ / rel).parent_path());
    std::filesystem::create_directory_symlink(target, root_ / rel);
  }

  // CPUs 0-3 on node 0 and 4-7 on node 1 (or one node of 0-7).
  void two_sockets() const {
    write("devices/system/cpu/online", "0-7");
    write("devices/system/node/node0/cpulist", "0-3");
    write("devices/system/node/node1/cpulist", "4-7");
  }
  void one_socket() const {
    write("devices/system/cpu/online", "0-7");
    write("devices/system/node/node0/cpulist", "0-7");
  }
  // A PCI function at `address` on `node`, its link now at (speed, width) of (max_speed,
  // max_width), and an RDMA device `ib` whose device link points at it.
  void pci_nic(const std::string& ib, const std::string& address, int node,
               const std::string& local_cpus, const std::string& speed, int width,
               const std::string& max_speed, int max_width) const {
    const std::string fn = "devices/pci0000:00/" + address;
    write(fn + "/vendor", "0x15b3");
    write(fn + "/numa_node", std::to_string(node));
    write(fn + "/local_cpulist", local_cpus);
    write(fn + "/current_link_speed", speed + " PCIe");
    write(fn + "/max_link_speed", max_speed + " PCIe");
    write(fn + "/current_link_width", std::to_string(width));
    write(fn + "/max_link_width", std::to_string(max_width));
    link("class/infiniband/" + ib + "/device", (root_ / fn).string());
  }
  // A software RDMA device (rxe) over netdev `parent`, which has no device link (lo, veth).
  void software_device(const std::string& ib, const std::string& parent) const {
    write("class/infiniband/" + ib + "/parent", parent);
    write("class/net/" + parent + "/mtu", "1500");
  }

 private:
  static int next_id() {
    static int id = 0;
    return ++id;
  }
  std::filesystem::path root_;
};

}  // namespace rdmabench::testing
