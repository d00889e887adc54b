#include <gtest/gtest.h>

#include "core/device_report.h"
#include "core/device_report_json.h"

using namespace rdmabench;

namespace {
DeviceReport sample_rxe() {
  DeviceReport d;
  d.name = "rxe0";
  d.driver = "rxe";
  PortReport p;
  p.state = "PORT_ACTIVE";
  p.link_layer = "Ethernet";
  p.active_mtu = 4096;
  p.max_mtu = 4096;
  p.netdev = "lo";
  for (auto [i, text] : {std::pair{0u, "fe80::200:ff:fe00:0"}, {1u, "::ffff:127.0.0.1"}}) {
    GidEntry g;
    g.index = i;
    g.raw = parse_gid(text).value();
    g.type = GidType::kRoceV2;
    g.netdev = "lo";
    p.gids.push_back(g);
  }
  p.default_gid_index = choose_default_gid(p.gids, false);
  d.ports.push_back(p);
  return d;
}
}  // namespace

TEST(DevicesJson, DocumentHasSchemaAndDevices) {
  const auto doc = devices_document({sample_rxe()});
  EXPECT_EQ(doc["schema"], 1);
  ASSERT_TRUE(doc["devices"].is_array());
  ASSERT_EQ(doc["devices"].size(), 1u);
  const auto& dev = doc["devices"][0];
  EXPECT_EQ(dev["name"], "rxe0");
  EXPECT_EQ(dev["driver"], "rxe");
  EXPECT_EQ(dev["sends_from_kernel_thread"], false);
  const auto& port = dev["ports"][0];
  EXPECT_EQ(port["link_layer"], "Ethernet");
  EXPECT_EQ(port["active_mtu"], 4096);
  EXPECT_EQ(port["default_gid_index"], 1);
  ASSERT_EQ(port["gids"].size(), 2u);
  EXPECT_EQ(port["gids"][1]["type"], "RoCE v2");
  EXPECT_EQ(port["gids"][1]["ipv4"], "127.0.0.1");
  EXPECT_EQ(port["gids"][1]["gid"], "::ffff:127.0.0.1");
  EXPECT_FALSE(port["gids"][1].contains("ipv6"));
  EXPECT_EQ(port["gids"][0]["ipv6"], "fe80::200:ff:fe00:0");
}

TEST(DevicesJson, NoUsableGidGivesNull) {
  DeviceReport d = sample_rxe();
  d.ports[0].gids.clear();
  d.ports[0].default_gid_index.reset();
  EXPECT_TRUE(to_json(d)["ports"][0]["default_gid_index"].is_null());
}

TEST(DevicesJson, ADeviceThatSendsFromAKernelThreadSaysSo) {
  DeviceReport d = sample_rxe();
  d.sends_from_kernel_thread = true;
  EXPECT_EQ(to_json(d)["sends_from_kernel_thread"], true);
}

// The port a run takes when none is named: the first ACTIVE (a dual-port NIC cabled on its
// second port alone), none when no port is.
TEST(DeviceReportPorts, TheFirstActivePortIsTheOneARunTakes) {
  DeviceReport nic = sample_rxe();
  nic.ports[0].state = "ACTIVE";
  PortReport second = nic.ports[0];
  second.number = 2;
  second.state = "DOWN";
  nic.ports.push_back(second);
  EXPECT_EQ(first_active_port(nic)->number, 1);
  nic.ports[0].state = "DOWN";
  nic.ports[1].state = "ACTIVE";
  EXPECT_EQ(first_active_port(nic)->number, 2);
  nic.ports[1].state = "INIT";
  EXPECT_EQ(first_active_port(nic), nullptr);
}

TEST(DeviceReportUnits, MtuSpeedWidth) {
  EXPECT_EQ(mtu_bytes(1), 256u);
  EXPECT_EQ(mtu_bytes(5), 4096u);
  EXPECT_EQ(mtu_bytes(0), 0u);
  EXPECT_EQ(mtu_bytes(9), 0u);
  EXPECT_DOUBLE_EQ(lane_speed_gbps(1), 2.5);
  EXPECT_EQ(width_lanes(2), 4);
  EXPECT_EQ(width_lanes(0), 0);
  EXPECT_DOUBLE_EQ(link_speed_gbps(32, 2), 103.125);  // EDR 4X
  EXPECT_EQ(link_width(2), "4X");
}
