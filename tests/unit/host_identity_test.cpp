// The port facts a mesh rank tells the others: those of the port it measures with (its
// device's first ACTIVE port), from fake device reports of the fabrics users run on.
#include "mesh/host_identity.h"

#include <gtest/gtest.h>

using namespace rdmabench;

namespace {

PortReport port(uint8_t number, const std::string& state, const std::string& fabric) {
  PortReport p;
  p.number = number;
  p.state = state;
  p.fabric = fabric;
  p.link_layer = fabric == "InfiniBand" ? "InfiniBand" : "Ethernet";
  return p;
}

GidEntry gid(uint8_t port_number, uint32_t index, const std::string& text, GidType type) {
  GidEntry g;
  g.port = port_number;
  g.index = index;
  g.raw = *parse_gid(text);
  g.type = type;
  return g;
}

// The port's table holds `g` alone, and it is the default GID.
void only_gid(PortReport& port, const GidEntry& g) {
  port.gids = {g};
  port.default_gid_index = g.index;
}

}  // namespace

// A dual-port RoCE NIC whose second port is down: port 1's facts.
TEST(HostIdentity, ADualPortNicWhoseSecondPortIsDownReportsItsFirst) {
  DeviceReport nic;
  nic.ports = {port(1, "ACTIVE", "RoCE v2"), port(2, "DOWN", "RoCE v2")};
  only_gid(nic.ports[0], gid(1, 3, "::ffff:10.0.0.1", GidType::kRoceV2));
  const nlohmann::json j = port_identity(nic);
  EXPECT_EQ(j["ib_port"], 1);
  EXPECT_EQ(j["port_state"], "ACTIVE");
  EXPECT_EQ(j["gid"], "::ffff:10.0.0.1");
  EXPECT_EQ(j["gid_type"], "RoCE v2");
}

// The same NIC cabled on its second port alone: port 2's state, fabric and GID, and its
// number, which the rank's server and clients then use (before: port 1's, "DOWN").
TEST(HostIdentity, ADualPortNicActiveOnItsSecondPortAloneReportsThatPort) {
  DeviceReport nic;
  nic.ports = {port(1, "DOWN", "RoCE v2"), port(2, "ACTIVE", "RoCE v1")};
  only_gid(nic.ports[1], gid(2, 0, "fe80::1", GidType::kRoceV1));
  const nlohmann::json j = port_identity(nic);
  EXPECT_EQ(j["ib_port"], 2);
  EXPECT_EQ(j["port_state"], "ACTIVE");
  EXPECT_EQ(j["fabric"], "RoCE v1");
  EXPECT_EQ(j["gid"], "fe80::1");
  EXPECT_EQ(j["gid_index"], 0);
}

// An InfiniBand port routed by its LID, whose table holds the link-local GID alone: that GID
// names it, and the fabric says InfiniBand.
TEST(HostIdentity, AnInfinibandPortWithOnlyItsLinkLocalGid) {
  DeviceReport hca;
  hca.ports = {port(1, "ACTIVE", "InfiniBand")};
  hca.ports[0].lid = 17;
  only_gid(hca.ports[0], gid(1, 0, "fe80::248a:703:49:d4f0", GidType::kIb));
  const nlohmann::json j = port_identity(hca);
  EXPECT_EQ(j["ib_port"], 1);
  EXPECT_EQ(j["link_layer"], "InfiniBand");
  EXPECT_EQ(j["fabric"], "InfiniBand");
  EXPECT_EQ(j["gid_type"], "IB");
}

// No port ACTIVE: the first port's facts, so that the report says it was down.
TEST(HostIdentity, NoActivePortReportsTheFirstAsItIs) {
  DeviceReport nic;
  nic.ports = {port(1, "DOWN", "RoCE v2"), port(2, "POLLING", "RoCE v2")};
  const nlohmann::json j = port_identity(nic);
  EXPECT_EQ(j["ib_port"], 1);
  EXPECT_EQ(j["port_state"], "DOWN");
  EXPECT_FALSE(j.contains("gid"));
  EXPECT_TRUE(port_identity(DeviceReport{}).empty());
}
