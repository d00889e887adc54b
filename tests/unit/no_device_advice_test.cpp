// The advice when libibverbs lists no device: read from a fake sysfs and /dev tree, it names
// the cause this host shows and what to do, for a user of a real NIC as much as of Soft-RoCE.
#include "verbs/no_device_advice.h"

#include <gtest/gtest.h>

#include "fake_sysfs.h"

namespace rdmabench {
namespace {

using testing::FakeSysfsTree;

TEST(NoDeviceAdvice, AHostWithNoRdmaDriverIsToldToLoadOneOrMakeSoftRoce) {
  FakeSysfsTree tree;
  tree.write("sys/class/net/eth0/mtu", "1500");
  const NoDeviceFacts facts = read_no_device_facts(tree.root());
  EXPECT_TRUE(facts.kernel_devices.empty());
  EXPECT_FALSE(facts.uverbs_module);
  const std::string text = no_device_advice(facts);
  EXPECT_NE(text.find("load your NIC's RDMA driver (mlx5_ib"), std::string::npos) << text;
  EXPECT_NE(text.find("modprobe ib_uverbs"), std::string::npos) << text;
  EXPECT_NE(text.find("rdma link add rxe0 type rxe netdev eth0"), std::string::npos) << text;
  EXPECT_NE(text.find("memlock"), std::string::npos) << text;
  // Nothing that exists only in a checkout of the repository.
  EXPECT_EQ(text.find("tools/"), std::string::npos) << text;
}

TEST(NoDeviceAdvice, ADeviceTheKernelHasButNoProviderServesNamesTheProviderPackage) {
  FakeSysfsTree tree;
  tree.write("sys/class/infiniband/mlx5_0/node_type", "1: CA");
  tree.write("sys/module/ib_uverbs/refcnt", "0");
  const NoDeviceFacts facts = read_no_device_facts(tree.root());
  ASSERT_EQ(facts.kernel_devices, std::vector<std::string>{"mlx5_0"});
  EXPECT_TRUE(facts.uverbs_module);
  const std::string text = no_device_advice(facts);
  EXPECT_NE(text.find("the kernel has mlx5_0 but no user-space provider"), std::string::npos)
      << text;
  EXPECT_NE(text.find("ibverbs-providers"), std::string::npos) << text;
  EXPECT_EQ(text.find("modprobe"), std::string::npos) << text;
}

TEST(NoDeviceAdvice, DeviceFilesTheUserCannotOpenComeFirst) {
  NoDeviceFacts facts;
  facts.kernel_devices = {"mlx5_0"};
  facts.uverbs_module = true;
  facts.closed_uverbs = {"/dev/infiniband/uverbs0"};
  const std::string text = no_device_advice(facts);
  EXPECT_NE(text.find("cannot open /dev/infiniband/uverbs0: run as root, or join the group"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace rdmabench
