#include "host/device_locality.h"

#include <gtest/gtest.h>

#include "core/cpu_ranges.h"
#include "core/error.h"
#include "fake_sysfs.h"
#include "host/cpu_placement.h"

using namespace rdmabench;
using rdmabench::testing::FakeSysfsTree;

TEST(CpuRanges, ReadsTheKernelsListFormat) {
  EXPECT_EQ(std::get<std::vector<int>>(parse_cpu_ranges("0-3,8,10-11\n")),
            (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(std::get<std::string>(parse_cpu_ranges("5-2")), "range '5-2' goes down");
  EXPECT_EQ(std::get<std::string>(parse_cpu_ranges("x")), "'x' is not a CPU number");
  EXPECT_EQ(std::get<std::string>(parse_cpu_ranges("")), "no CPUs");
  EXPECT_EQ(cpu_list_text({4, 5, 6}), "4,5,6");
}

TEST(DeviceLocality, APcieNicOnTheSecondSocket) {
  const FakeSysfsTree sys;
  sys.two_sockets();
  sys.pci_nic("mlx5_0", "0000:3b:00.0", 1, "4-7", "16.0 GT/s", 16, "16.0 GT/s", 16);
  const DeviceLocality where = read_device_locality(sys.root(), "mlx5_0");
  EXPECT_EQ(where.pci_address, "0000:3b:00.0");
  EXPECT_EQ(where.numa_node, 1);
  EXPECT_EQ(where.local_cpus, (std::vector<int>{4, 5, 6, 7}));
  ASSERT_TRUE(where.link);
  EXPECT_FALSE(where.link->below_maximum());
  EXPECT_EQ(where.link->describe(), "16.0 GT/s x16 (its maximum)");
  const CpuTopology topology = read_cpu_topology(sys.root());
  EXPECT_EQ(topology.online.size(), 8u);
  EXPECT_EQ(topology.nodes.size(), 2u);
}

TEST(DeviceLocality, AHalfWidthLinkIsBelowItsMaximum) {
  const FakeSysfsTree sys;
  sys.two_sockets();
  sys.pci_nic("mlx5_1", "0000:af:00.0", 0, "0-3", "16.0 GT/s", 8, "16.0 GT/s", 16);
  const DeviceLocality where = read_device_locality(sys.root(), "mlx5_1");
  ASSERT_TRUE(where.link);
  EXPECT_TRUE(where.link->below_maximum());
  EXPECT_EQ(where.link->describe(), "16.0 GT/s x8 (maximum 16.0 GT/s x16)");
}

TEST(DeviceLocality, ASlowerTrainedLinkIsBelowItsMaximumToo) {
  const FakeSysfsTree sys;
  sys.pci_nic("mlx5_2", "0000:af:00.1", 0, "0-3", "8.0 GT/s", 16, "16.0 GT/s", 16);
  EXPECT_TRUE(read_device_locality(sys.root(), "mlx5_2").link->below_maximum());
}

TEST(DeviceLocality, RxeOverVethIsNotAPciDevice) {
  const FakeSysfsTree sys;
  sys.one_socket();
  sys.software_device("rxe0", "veth0");
  const DeviceLocality where = read_device_locality(sys.root(), "rxe0");
  EXPECT_EQ(where.pci_address, "");
  EXPECT_EQ(where.through_netdev, "veth0");
  EXPECT_EQ(where.numa_node, -1);
  EXPECT_FALSE(where.link);
  EXPECT_EQ(where.where(), "over veth0, not a PCI device");
}

TEST(DeviceLocality, RxeOverAPciNicIsAsLocalAsThatNic) {
  const FakeSysfsTree sys;
  sys.two_sockets();
  sys.pci_nic("unused", "0000:5e:00.0", 1, "4-7", "8.0 GT/s", 8, "8.0 GT/s", 8);
  sys.software_device("rxe0", "eth0");
  sys.link("class/net/eth0/device", (sys.root() / "devices/pci0000:00/0000:5e:00.0").string());
  const DeviceLocality where = read_device_locality(sys.root(), "rxe0");
  EXPECT_EQ(where.numa_node, 1);
  EXPECT_EQ(where.where(), "PCI 0000:5e:00.0 (through eth0)");
}

TEST(CpuPlacement, ByDefaultOnTheNicsNodeWithItsMemory) {
  const FakeSysfsTree sys;
  sys.two_sockets();
  sys.pci_nic("mlx5_0", "0000:3b:00.0", 1, "4-7", "16.0 GT/s", 16, "16.0 GT/s", 16);
  const CpuPlacement p = choose_placement(read_device_locality(sys.root(), "mlx5_0"),
                                          read_cpu_topology(sys.root()), {});
  EXPECT_EQ(p.cpus, (std::vector<int>{4, 5, 6, 7}));
  EXPECT_EQ(p.memory_node, 1);
  EXPECT_NE(p.reason.find("mlx5_0 (PCI 0000:3b:00.0) is on NUMA node 1"), std::string::npos)
      << p.reason;
}

TEST(CpuPlacement, OneNodeOrNoNodeLeavesThreadsUnpinned) {
  const FakeSysfsTree sys;
  sys.one_socket();
  sys.pci_nic("mlx5_0", "0000:3b:00.0", 0, "0-7", "16.0 GT/s", 16, "16.0 GT/s", 16);
  sys.software_device("rxe0", "lo");
  const CpuTopology topology = read_cpu_topology(sys.root());
  const CpuPlacement one =
      choose_placement(read_device_locality(sys.root(), "mlx5_0"), topology, {});
  EXPECT_TRUE(one.cpus.empty());
  EXPECT_EQ(one.memory_node, -1);
  EXPECT_NE(one.reason.find("only one"), std::string::npos) << one.reason;
  const CpuPlacement rxe = choose_placement(read_device_locality(sys.root(), "rxe0"), topology, {});
  EXPECT_TRUE(rxe.cpus.empty());
  EXPECT_EQ(rxe.reason, "rxe0 (over lo, not a PCI device) reports no NUMA node: not pinned");
}

TEST(CpuPlacement, CpusAndNumaOverrideAndSaySoWhenRemote) {
  const FakeSysfsTree sys;
  sys.two_sockets();
  sys.pci_nic("mlx5_0", "0000:3b:00.0", 1, "4-7", "16.0 GT/s", 16, "16.0 GT/s", 16);
  const DeviceLocality nic = read_device_locality(sys.root(), "mlx5_0");
  const CpuTopology topology = read_cpu_topology(sys.root());
  const CpuPlacement cpus = choose_placement(nic, topology, {{0, 1}, std::nullopt});
  EXPECT_EQ(cpus.cpus, (std::vector<int>{0, 1}));
  EXPECT_EQ(cpus.memory_node, 1);
  EXPECT_NE(cpus.reason.find("not all local to mlx5_0"), std::string::npos) << cpus.reason;
  const CpuPlacement numa = choose_placement(nic, topology, {{}, 0});
  EXPECT_EQ(numa.cpus, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(numa.memory_node, 0);
  EXPECT_NE(numa.reason.find("mlx5_0 is on NUMA node 1"), std::string::npos) << numa.reason;
  const CpuPlacement off = choose_placement(nic, topology, {{}, kNumaOff});
  EXPECT_TRUE(off.cpus.empty());
  EXPECT_EQ(off.memory_node, -1);
  try {
    choose_placement(nic, topology, {{}, 7});
    FAIL() << "--numa 7 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage);
    EXPECT_NE(std::string(e.what()).find("nodes: 0, 1"), std::string::npos) << e.what();
  }
}
