// Several mesh ranks on one host with no --device list: the k-th rank takes the k-th active
// device and its netdev's address, or every rank is refused naming the host.
#include "mesh/device_choice.h"

#include <gtest/gtest.h>

#include "core/error.h"

using namespace rdmabench;

namespace {

DeviceReport device(const std::string& name, const std::string& state, const std::string& netdev) {
  DeviceReport d;
  d.name = name;
  PortReport p;
  p.state = state;
  p.netdev = netdev;
  d.ports.push_back(p);
  return d;
}

std::string address_of(const std::string& netdev) {
  return netdev == "h9" ? "" : "10.0.0." + netdev.substr(1);
}

std::string refusal(int local_rank, int local_size, const std::vector<DeviceReport>& devices) {
  try {
    default_device_for(local_rank, local_size, devices, address_of, "node7");
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage);
    return e.what();
  }
  return "";
}

}  // namespace

TEST(MeshDeviceChoice, OneRankOnAHostKeepsTheFirstDeviceAndAddress) {
  const RankDevice r = default_device_for(0, 1, {}, address_of, "node7");
  EXPECT_EQ(r.device, "");
  EXPECT_EQ(r.address, "");
}

TEST(MeshDeviceChoice, TheKthRankTakesTheKthActiveDeviceByNameAndItsNetdevsAddress) {
  const std::vector<DeviceReport> devices = {
      device("mlx5_2", "ACTIVE", "h2"), device("mlx5_0", "ACTIVE", "h0"),
      device("mlx5_1", "DOWN", "h1"), device("mlx5_3", "ACTIVE", "h3")};
  const RankDevice r = default_device_for(1, 3, devices, address_of, "node7");
  EXPECT_EQ(r.device, "mlx5_2");
  EXPECT_EQ(r.address, "10.0.0.2");
  EXPECT_NE(r.choice.find("local rank 1 of 3"), std::string::npos) << r.choice;
  EXPECT_NE(r.choice.find("mlx5_0,mlx5_2,mlx5_3"), std::string::npos) << r.choice;
  EXPECT_EQ(default_device_for(2, 3, devices, address_of, "node7").device, "mlx5_3");
}

TEST(MeshDeviceChoice, TooFewActiveDevicesOrNoAddressIsRefusedNamingTheHostAndWhatToGive) {
  const std::vector<DeviceReport> two = {device("rxe0", "ACTIVE", "h0"),
                                         device("rxe1", "DOWN", "h1")};
  const std::string why = refusal(0, 4, two);
  EXPECT_NE(why.find("host node7 runs 4 ranks but has 1 active RDMA devices (rxe0)"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("give --device"), std::string::npos) << why;
  // Every rank of the host says the same, whichever it is.
  EXPECT_EQ(refusal(3, 4, two), why);
  const std::string no_ip =
      refusal(0, 2, {device("rxe9", "ACTIVE", "h9"), device("rxe8", "ACTIVE", "h8")});
  EXPECT_TRUE(no_ip.empty());  // rank 0 takes rxe8, whose netdev has an address
  EXPECT_NE(refusal(1, 2, {device("rxe9", "ACTIVE", "h9"), device("rxe8", "ACTIVE", "h8")})
                .find("--address"),
            std::string::npos);
}

// A dual-port NIC cabled on its second port alone is an active device, and its rank measures
// over that port's netdev (before, only port 1's state counted: "has 1 active RDMA devices").
TEST(MeshDeviceChoice, ADualPortNicActiveOnItsSecondPortAloneTakesThatPortsNetdev) {
  DeviceReport dual = device("mlx5_1", "DOWN", "h8");
  PortReport second;
  second.number = 2;
  second.state = "ACTIVE";
  second.netdev = "h5";
  dual.ports.push_back(second);
  const std::vector<DeviceReport> devices = {device("mlx5_0", "ACTIVE", "h4"), dual};
  const RankDevice r = default_device_for(1, 2, devices, address_of, "node7");
  EXPECT_EQ(r.device, "mlx5_1");
  EXPECT_EQ(r.address, "10.0.0.5");
  EXPECT_NE(r.choice.find("netdev h5"), std::string::npos) << r.choice;
}

// Under mpirun on a host with no RDMA device, every rank said "has 0 active RDMA devices
// (none): ... run at most 0 ranks per host" and exited 2, as for a bad option: it is exit 3.
TEST(MeshDeviceChoice, AHostWithNoActiveDeviceIsNoDeviceWithWhatToDo) {
  for (const auto& devices :
       {std::vector<DeviceReport>{},
        std::vector{device("rxe0", "DOWN", "h0"), device("rxe1", "INIT", "")}}) {
    try {
      default_device_for(0, 2, devices, address_of, "node7");
      ADD_FAILURE() << "a host with no active device was given one";
    } catch (const Error& e) {
      const std::string why = e.what();
      EXPECT_EQ(e.exit_code(), ExitCode::kNoDevice) << why;
      EXPECT_NE(why.find("host node7 has no RDMA device with an ACTIVE port"), std::string::npos)
          << why;
      EXPECT_EQ(why.find("at most 0 ranks"), std::string::npos) << why;
      if (!devices.empty()) {
        EXPECT_NE(why.find("rxe0,rxe1"), std::string::npos) << why;
      }
    }
  }
}
