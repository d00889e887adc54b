#include "host/doctor_checks.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "fake_sysfs.h"
#include "host/doctor_facts.h"

using namespace rdmabench;
using rdmabench::testing::FakeSysfsTree;

namespace {

DeviceReport fake_nic(const std::string& name, const std::string& state, uint32_t mtu,
                      GidType gid_type) {
  DeviceReport d;
  d.name = name;
  d.driver = "mlx5_core";
  d.firmware = "28.39.1002";
  PortReport port;
  port.state = state;
  port.link_layer = "Ethernet";
  port.active_mtu = mtu;
  port.max_mtu = 4096;
  port.speed_gbps = 100;
  port.width = "4X";
  port.netdev = "ens1f0";
  GidEntry gid;
  gid.type = gid_type;
  port.gids.push_back(gid);
  d.ports.push_back(port);
  return d;
}

const Finding& find(const std::vector<Finding>& all, const std::string& subject,
                    const std::string& check) {
  const auto it = std::ranges::find_if(
      all, [&](const Finding& f) { return f.subject == subject && f.check == check; });
  if (it == all.end()) throw std::runtime_error("no finding " + subject + " " + check);
  return *it;
}

DoctorFacts healthy_two_socket_host(const FakeSysfsTree& sys) {
  sys.two_sockets();
  sys.pci_nic("mlx5_0", "0000:3b:00.0", 1, "4-7", "16.0 GT/s", 16, "16.0 GT/s", 16);
  for (int cpu = 0; cpu < 8; ++cpu)
    sys.write("devices/system/cpu/cpu" + std::to_string(cpu) + "/cpufreq/scaling_governor",
              "performance");
  DoctorFacts facts;
  facts.devices = {fake_nic("mlx5_0", "ACTIVE", 4096, GidType::kRoceV2)};
  facts.locality["mlx5_0"] = read_device_locality(sys.root(), "mlx5_0");
  facts.topology = read_cpu_topology(sys.root());
  facts.governors = read_governors(sys.root());
  facts.meminfo = "HugePages_Total:      64\nHugePages_Free:       64\nHugepagesize:    2048 kB\n";
  facts.memlock_bytes = std::nullopt;
  facts.default_run_bytes = 72ull << 20;
  return facts;
}

}  // namespace

TEST(Doctor, AHealthyHostIsOkThroughout) {
  const FakeSysfsTree sys;
  const std::vector<Finding> all = run_checks(healthy_two_socket_host(sys));
  for (const Finding& f : all) EXPECT_EQ(f.level, Level::kOk) << finding_line(f);
  EXPECT_NE(find(all, "mlx5_0", "NUMA").detail.find("NUMA node 1: its CPUs 4,5,6,7"),
            std::string::npos);
  EXPECT_EQ(find(all, "mlx5_0", "PCIe link").value, "16.0 GT/s x16 (its maximum)");
}

TEST(Doctor, AHalfWidthLinkAPortDownAndASmallMtuAreNamed) {
  const FakeSysfsTree sys;
  DoctorFacts facts = healthy_two_socket_host(sys);
  sys.pci_nic("mlx5_1", "0000:af:00.0", 0, "0-3", "16.0 GT/s", 8, "16.0 GT/s", 16);
  facts.devices.push_back(fake_nic("mlx5_1", "DOWN", 1024, GidType::kRoceV2));
  facts.locality["mlx5_1"] = read_device_locality(sys.root(), "mlx5_1");
  const std::vector<Finding> all = run_checks(facts);
  EXPECT_EQ(find(all, "mlx5_1", "PCIe link").level, Level::kWarn);
  EXPECT_NE(find(all, "mlx5_1", "PCIe link").detail.find("x8 (maximum 16.0 GT/s x16)"),
            std::string::npos);
  EXPECT_EQ(find(all, "mlx5_1 port 1", "state").level, Level::kFail);
  const Finding& mtu = find(all, "mlx5_1 port 1", "MTU");
  EXPECT_EQ(mtu.level, Level::kWarn);
  EXPECT_NE(mtu.advice.find("ip link set ens1f0 mtu 9000"), std::string::npos) << mtu.advice;
  EXPECT_EQ(worst(all), Level::kFail);
  EXPECT_EQ(find(all, "mlx5_0 port 1", "state").level, Level::kOk);
}

TEST(Doctor, RxeWithoutPciIsNotAFault) {
  const FakeSysfsTree sys;
  sys.one_socket();
  sys.software_device("rxe0", "veth0");
  DoctorFacts facts;
  facts.devices = {fake_nic("rxe0", "ACTIVE", 4096, GidType::kRoceV2)};
  facts.locality["rxe0"] = read_device_locality(sys.root(), "rxe0");
  facts.topology = read_cpu_topology(sys.root());
  facts.meminfo = "HugePages_Free:        0\nHugepagesize:    2048 kB\n";
  const std::vector<Finding> all = run_checks(facts);
  EXPECT_EQ(find(all, "rxe0", "PCIe link").detail, "none (over veth0, not a PCI device)");
  EXPECT_EQ(find(all, "rxe0", "NUMA").level, Level::kOk);
  EXPECT_EQ(find(all, "host", "CPU frequency").level, Level::kOk);  // no cpufreq at all
  EXPECT_EQ(worst(all), Level::kOk);
}

TEST(Doctor, APciNicWithoutANodeOnTwoSocketsWarns) {
  const FakeSysfsTree sys;
  DoctorFacts facts = healthy_two_socket_host(sys);
  sys.write("devices/pci0000:00/0000:3b:00.0/numa_node", "-1");
  facts.locality["mlx5_0"] = read_device_locality(sys.root(), "mlx5_0");
  EXPECT_EQ(find(run_checks(facts), "mlx5_0", "NUMA").level, Level::kWarn);
}

TEST(Doctor, GovernorGidsMemlockAndNoDevice) {
  EXPECT_EQ(check_governors({{0, "performance"}, {1, "powersave"}}).level, Level::kWarn);
  EXPECT_EQ(check_governors({{0, "performance"}, {1, "performance"}}).level, Level::kOk);
  EXPECT_EQ(check_roce_gids(fake_nic("m", "ACTIVE", 4096, GidType::kRoceV1))->level, Level::kWarn);
  DeviceReport ib = fake_nic("ib", "ACTIVE", 4096, GidType::kIb);
  ib.ports[0].link_layer = "InfiniBand";
  EXPECT_FALSE(check_roce_gids(ib));
  DoctorFacts facts;
  facts.default_run_bytes = 72ull << 20;
  facts.memlock_bytes = 8ull << 20;
  EXPECT_EQ(check_memlock(facts).level, Level::kFail);
  EXPECT_NE(check_memlock(facts).detail.find("limit 8 MiB < a default run registers 72 MiB"),
            std::string::npos)
      << check_memlock(facts).detail;
  facts.lock_capability = true;
  EXPECT_EQ(check_memlock(facts).level, Level::kOk);
  facts.lock_capability = false;
  facts.memlock_bytes = 128ull << 20;
  EXPECT_EQ(check_memlock(facts).level, Level::kOk);
  const std::vector<Finding> none = run_checks(DoctorFacts{});
  EXPECT_EQ(none.front().check, "RDMA devices");
  EXPECT_EQ(none.front().level, Level::kFail);
}

TEST(Doctor, TheKernelsTuningWordsAreSaidAndCompared) {
  const Finding none = check_kernel_tuning({});
  EXPECT_EQ(none.level, Level::kOk);
  EXPECT_EQ(none.value, "none");
  const Finding tuned = check_kernel_tuning({"idle=poll", "isolcpus=1"});
  EXPECT_EQ(tuned.level, Level::kOk);
  EXPECT_EQ(tuned.detail, "kernel command line: idle=poll isolcpus=1");
  EXPECT_EQ(tuned.value, "idle=poll isolcpus=1");
  DoctorFacts facts;
  facts.kernel_tuning = {"nosmt"};
  EXPECT_EQ(compared_findings(run_checks(facts), "mlx5_0")["kernel tuning"], "nosmt");
}

TEST(ComparedFindings, KeepsTheDevicesAndTheHostsComparedFactsUnderTheirChecks) {
  auto finding = [](std::string subject, std::string check, std::string value, bool compared) {
    Finding f;
    f.subject = std::move(subject);
    f.check = std::move(check);
    f.value = std::move(value);
    f.compared = compared;
    return f;
  };
  const std::vector<Finding> findings = {
      finding("mlx5_0 port 1", "MTU", "4096", true),
      finding("mlx5_0", "firmware", "20.31", true),
      finding("host", "CPU frequency", "performance", true),
      finding("mlx5_1 port 1", "MTU", "1024", true),  // another device of this host
      finding("mlx5_0", "state", "ACTIVE", false),    // not compared
  };
  EXPECT_EQ(compared_findings(findings, "mlx5_0"),
            (nlohmann::json{
                {"port 1 MTU", "4096"}, {"firmware", "20.31"}, {"CPU frequency", "performance"}}));
}
