// device_ipv4: the address a client resolves from over rdma_cm when -d names a device (rdma_cm
// takes the device of the route's local address, so naming one is honoured this way).
#include "host/device_address.h"

#include <gtest/gtest.h>

#include <map>

using namespace rdmabench;

namespace {

GidEntry gid(const char* text) {
  GidEntry g;
  g.raw = *parse_gid(text);
  return g;
}

PortReport port(const char* state, const char* netdev, std::vector<GidEntry> gids) {
  PortReport p;
  p.state = state;
  p.netdev = netdev;
  p.gids = std::move(gids);
  return p;
}

NetdevAddress addresses(const std::map<std::string, std::string>& known) {
  return [known](const std::string& netdev) -> std::optional<std::string> {
    const auto it = known.find(netdev);
    return it == known.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
}

}  // namespace

TEST(DeviceAddress, RoceTakesTheFirstGidThatMapsAnIpv4Address) {
  DeviceReport d;
  d.ports = {port("ACTIVE", "eth0", {gid("fe80::1"), gid("::ffff:10.0.0.7")})};
  EXPECT_EQ(device_ipv4(d, addresses({{"eth0", "10.9.9.9"}})), "10.0.0.7");
}

TEST(DeviceAddress, IwarpTakesItsNetdevsAddress) {
  DeviceReport d;  // siw's one GID is the MAC, no address
  d.ports = {port("ACTIVE", "veth1", {gid("3a:f1::")})};
  EXPECT_EQ(device_ipv4(d, addresses({{"veth1", "10.99.0.2"}})), "10.99.0.2");
}

TEST(DeviceAddress, APortThatIsNotActiveIsPassedOver) {
  DeviceReport d;
  d.ports = {port("DOWN", "eth0", {gid("::ffff:10.0.0.1")}),
             port("ACTIVE", "eth1", {gid("::ffff:10.0.1.1")})};
  EXPECT_EQ(device_ipv4(d, addresses({})), "10.0.1.1");
}

TEST(DeviceAddress, NoneWhereNoPortHasOne) {
  DeviceReport infiniband;  // no netdev known, GIDs of the subnet prefix
  infiniband.ports = {port("ACTIVE", "", {gid("fe80::2")})};
  EXPECT_EQ(device_ipv4(infiniband, addresses({})), std::nullopt);
  DeviceReport unaddressed;
  unaddressed.ports = {port("ACTIVE", "eth3", {gid("fe80::3")})};
  EXPECT_EQ(device_ipv4(unaddressed, addresses({})), std::nullopt);
}

TEST(DeviceAddress, LoopbackHasItsAddress) {
  EXPECT_EQ(netdev_ipv4("lo"), "127.0.0.1");
  EXPECT_EQ(netdev_ipv4("no-such-netdev"), std::nullopt);
}
