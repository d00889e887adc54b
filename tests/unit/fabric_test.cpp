// What rdmabench assumed on rxe and must not elsewhere: each test states a device or port it
// never ran on (an iWARP NIC, an InfiniBand port with a LID and only its link-local GID, a
// RoCE v1 GID table, a dual-port NIC whose QPs report the second port, a QP that reports no
// port at all) by its attributes, and what rdmabench must decide there.
#include <gtest/gtest.h>

#include <vector>

#include "core/error.h"
#include "core/fabric.h"
#include "core/provider_facts.h"
#include "fake_sysfs.h"
#include "host/device_probe.h"
#include "host/doctor_checks.h"
#include "mesh/mesh_request.h"
#include "runner/bootstrap_choice.h"
#include "spec/benchmark_matrix.h"
#include "spec/spec_validation.h"
#include "spec/transport.h"
#include "spec_fixture.h"
#include "verbs/queue_pair.h"

namespace rdmabench {
namespace {

GidEntry gid(uint32_t index, const std::string& text, GidType type) {
  GidEntry e;
  e.index = index;
  e.raw = parse_gid(text).value();
  e.type = type;
  return e;
}

// siw as rdma-core shows it: iWARP transport, an Ethernet port, one GID made from the MAC.
const std::vector<GidEntry> kSiwGids = {gid(0, "a63:927f:3cbd::", GidType::kIwarp)};

DeviceLimits iwarp_limits() {
  DeviceLimits d;
  d.device = "siw1";
  d.max_msg_sz = 1u << 31;
  d.max_qp_wr = 32768;
  d.max_cqe = 65536;
  d.gid_table_len = 1;
  d.max_qp_rd_atom = 32;
  d.max_qp_init_rd_atom = 32;
  d.active_mtu = 4096;
  d.max_srq_wr = 16384;
  d.atomics = false;
  d.fabric = Fabric::kIwarp;
  const ProviderFacts siw = provider_by_vendor(0x626d74).value();
  d.driver = siw.driver;
  d.immediate_data = siw.immediate_data;
  d.no_immediate_why = siw.why_not;
  return d;
}

TEST(Fabric, IsToldFromTheTransportTheLinkLayerAndTheGid) {
  EXPECT_EQ(fabric_of({.iwarp_transport = true, .ethernet_link = true, .gids = kSiwGids}),
            Fabric::kIwarp);
  // An InfiniBand port: a LID, and no GID beyond the link-local one.
  const std::vector<GidEntry> ib = {gid(0, "fe80::248a:703:49:d5e4", GidType::kIb)};
  EXPECT_EQ(fabric_of({.ethernet_link = false, .gids = ib}), Fabric::kInfiniBand);
  EXPECT_EQ(choose_default_gid(ib, true), 0u);
  // A RoCE v1 GID table (a driver whose default_roce_mode is v1).
  const std::vector<GidEntry> v1 = {gid(0, "fe80::268a:7ff:fe49:d5e4", GidType::kRoceV1),
                                    gid(1, "::ffff:192.168.1.5", GidType::kRoceV1)};
  EXPECT_EQ(fabric_of({.ethernet_link = true, .gids = v1}), Fabric::kRoceV1);
  const std::vector<GidEntry> both = {v1[0], v1[1], gid(3, "::ffff:192.168.1.5", GidType::kRoceV2)};
  EXPECT_EQ(fabric_of({.ethernet_link = true, .gids = both}), Fabric::kRoceV2);
  EXPECT_EQ(to_string(Fabric::kIwarp), "iWARP");
  EXPECT_EQ(to_string(GidType::kIwarp), "iWARP");
}

TEST(Fabric, AQpThatReportsNoPortIsOnThePortItWasBoundTo) {
  // rdma-core's siw provider answers ibv_query_qp with port 0: the path was asked of port 0
  // ("ibv_query_gid_ex failed: Invalid argument [siw1 port 0 gid index 0]").
  EXPECT_EQ(port_in_use(0, 0, 1), 1);
  // A dual-port NIC: a QP on its second port says so, whatever the first's state.
  EXPECT_EQ(port_in_use(2, 0, 1), 2);
  EXPECT_EQ(port_in_use(0, 2, 1), 2);
}

TEST(Fabric, IwarpConnectsThroughRdmaCmOnly) {
  const BootstrapChoice cm{Bootstrap::kRdmaCm, "address maps to siw1", "siw1"};
  const BootstrapChoice auto_cm = settle_for_fabric(cm, true, std::nullopt, default_transport());
  EXPECT_EQ(auto_cm.method, Bootstrap::kRdmaCm);
  EXPECT_NE(auto_cm.reason.find("iWARP"), std::string::npos) << auto_cm.reason;
  // Asked for out of band: exit 2, before anything connects.
  const BootstrapChoice oob{Bootstrap::kOob, "requested", "siw0"};
  try {
    settle_for_fabric(oob, true, Bootstrap::kOob, default_transport());
    FAIL() << "--cm oob on iWARP was taken";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage);
    EXPECT_NE(std::string(e.what()).find("rdma_cm only"), std::string::npos) << e.what();
  }
  // --cm auto falling back to out of band (a loopback address): refused, saying why.
  const BootstrapChoice lo{Bootstrap::kOob, "loopback address", "siw0"};
  EXPECT_THROW(settle_for_fabric(lo, true, std::nullopt, default_transport()), Error);
  // No datagrams nor UC on iWARP.
  for (const char* name : {"ud", "uc"}) {
    const auto t = parse_transport(name);
    ASSERT_TRUE(t) << name;
    EXPECT_THROW(settle_for_fabric(cm, true, std::nullopt, *t), Error) << name;
  }
  // On RoCE the choice stands as it was made.
  EXPECT_EQ(settle_for_fabric(oob, false, Bootstrap::kOob, default_transport()).reason,
            "requested");
}

TEST(Fabric, WhatIwarpAndSiwDoNotCarryIsRefusedWithItsReason) {
  const DeviceLimits siw = iwarp_limits();
  TestSpec write = a_spec("write");
  write.bootstrap = Bootstrap::kRdmaCm;
  EXPECT_NO_THROW(validate_spec(write, siw));
  for (const char* pattern : {"write_imm", "send_imm"}) {
    TestSpec imm = a_spec(pattern);
    imm.bootstrap = Bootstrap::kRdmaCm;
    try {
      validate_spec(imm, siw);
      FAIL() << pattern << " was taken on siw";
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), ExitCode::kUsage);
      EXPECT_NE(std::string(e.what()).find("immediate"), std::string::npos) << e.what();
    }
  }
  TestSpec oob = a_spec("write");
  oob.bootstrap = Bootstrap::kOob;
  EXPECT_THROW(validate_spec(oob, siw), Error);
  const auto ud = parse_transport("ud");
  ASSERT_TRUE(ud);
  TestSpec datagram = a_spec("send");
  datagram.transport = *ud;
  datagram.size = 1024;
  EXPECT_THROW(validate_spec(datagram, siw), Error);
  TestSpec atomic = a_spec("fetch_add");
  atomic.size = 8;
  atomic.bootstrap = Bootstrap::kRdmaCm;
  EXPECT_THROW(validate_spec(atomic, siw), Error);  // atomic_cap IBV_ATOMIC_NONE
  // rxe (and any vendor rdmabench does not know) carries immediate data.
  EXPECT_TRUE(carries_immediate_data(0xffffff));
  EXPECT_TRUE(carries_immediate_data(0x02c9));
  EXPECT_FALSE(carries_immediate_data(0x626d74));
}

TEST(Fabric, PatternAllLeavesOutWhatTheDeviceRefusesAndSaysWhy) {
  BenchmarkMatrix so;
  so.base.bootstrap = Bootstrap::kRdmaCm;
  for (const char* name : {"write", "write_imm", "send"})
    so.patterns.push_back({parse_pattern(name).value(), {4096}});
  const auto refusal = refusal_by(iwarp_limits());
  EXPECT_TRUE(drop_refused_patterns(so, refusal).empty());  // named patterns: each says why
  EXPECT_EQ(so.patterns.size(), 3u);
  so.all_patterns = true;
  const std::vector<std::string> notes = drop_refused_patterns(so, refusal);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].rfind("write_imm (", 0), 0u) << notes[0];
  ASSERT_EQ(so.patterns.size(), 2u);
  EXPECT_EQ(so.patterns[1].first.name(), "send");
}

TEST(Fabric, SoftwareDevicesAreNamedByTheirDriverAndIwarpPortsByTheirNetdev) {
  const testing::FakeSysfsTree sys;
  sys.write("class/infiniband/siw0/node_type", "4: RNIC");
  sys.write("class/net/veth0/address", "0a:63:92:7f:3c:bd");
  sys.write("class/net/veth1/address", "5e:0f:62:85:cf:0a");
  EXPECT_EQ(driver_of(sys.root(), "siw0", 0x626d74), "siw");
  EXPECT_EQ(driver_of(sys.root(), "rxe0", 0xffffff), "rxe");
  EXPECT_EQ(driver_of(sys.root(), "mystery0", 0x1234), "unknown");
  sys.write("bus/pci/drivers/irdma/.keep", "");
  sys.link("class/infiniband/irdma0/device/driver",
           (sys.root() / "bus/pci/drivers/irdma").string());
  EXPECT_EQ(driver_of(sys.root(), "irdma0", 0x8086), "irdma");
  EXPECT_EQ(netdev_of_mac_gid(sys.root(), kSiwGids[0].raw), "veth0");
  EXPECT_EQ(netdev_of_mac_gid(sys.root(), parse_gid("1:2:3::").value()), "");
}

TEST(Fabric, TheDoctorAsksNoRoceGidOfAnIwarpPort) {
  DeviceReport siw;
  siw.name = "siw0";
  siw.driver = "siw";
  PortReport port;
  port.state = "ACTIVE";
  port.link_layer = "Ethernet";
  port.fabric = "iWARP";
  port.gids = kSiwGids;
  siw.ports.push_back(port);
  EXPECT_FALSE(check_roce_gids(siw)) << finding_line(*check_roce_gids(siw));
}

TEST(Fabric, OnSiwTheMemlockLimitBindsRootToo) {
  // siw_umem_get checks RLIMIT_MEMLOCK itself, CAP_IPC_LOCK or not: a root server with the
  // default 8 MiB failed every 1 MiB row ("ibv_reg_mr failed: Cannot allocate memory").
  DoctorFacts facts;
  facts.default_run_bytes = 72ull << 20;
  facts.memlock_bytes = 8ull << 20;
  facts.lock_capability = true;
  DeviceReport rxe;
  rxe.name = "rxe0";
  rxe.driver = "rxe";
  rxe.vendor_id = 0xffffff;
  facts.devices = {rxe};
  EXPECT_EQ(check_memlock(facts).level, Level::kOk);  // the capability lifts it for rxe
  DeviceReport siw = rxe;
  siw.name = "siw0";
  siw.driver = "siw";
  siw.vendor_id = 0x626d74;
  facts.devices.push_back(siw);
  const Finding memlock = check_memlock(facts);
  EXPECT_EQ(memlock.level, Level::kFail) << finding_line(memlock);
  EXPECT_NE(memlock.advice.find("siw counts it against the limit even for root"), std::string::npos)
      << memlock.advice;
}

TEST(Fabric, AMeshWithAnIwarpRankTakesRdmaCmForEveryPair) {
  // mesh --cm auto (the default): out of band as before on RoCE and InfiniBand; a mesh of siw
  // ranks failed every pair with "--cm oob: siw0 (iWARP) connects through rdma_cm only".
  EXPECT_EQ(settle_mesh_bootstrap({"RoCE v2", "RoCE v2"}), Bootstrap::kOob);
  EXPECT_EQ(settle_mesh_bootstrap({"", "InfiniBand"}), Bootstrap::kOob);
  EXPECT_EQ(settle_mesh_bootstrap({"iWARP", "iWARP", "iWARP"}), Bootstrap::kRdmaCm);
  MeshRequest job;
  job.specs = {a_spec()};
  settle_mesh_bootstrap(job, {"iWARP", "RoCE v2"});
  EXPECT_EQ(job.specs[0].bootstrap, Bootstrap::kRdmaCm);
  // A --gid-index the settled rdma_cm would ignore is refused, as --cm rdmacm refuses it.
  job.run.local.gid_index = 1;
  try {
    settle_mesh_bootstrap(job, {"iWARP", "iWARP"});
    ADD_FAILURE() << "a --gid-index over a settled rdma_cm was taken";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage);
    EXPECT_NE(std::string(e.what()).find("--gid-index is set over rdma_cm"), std::string::npos);
  }
  job.specs[0].bootstrap = Bootstrap::kOob;
  settle_mesh_bootstrap(job, {"RoCE v2", "InfiniBand"});  // out of band: its own to take
  EXPECT_EQ(job.specs[0].bootstrap, Bootstrap::kOob);
  EXPECT_EQ(parse_fabric("iWARP"), Fabric::kIwarp);
  EXPECT_EQ(parse_fabric(to_string(Fabric::kRoceV1)), Fabric::kRoceV1);
  EXPECT_FALSE(parse_fabric("iwarp"));
}

TEST(Fabric, EachTransportNamesTheFabricsThatCarryIt) {
  // What version --json reports per transport, and what the run refuses by: iWARP carries
  // reliable connected QPs alone; InfiniBand and RoCE every kind.
  for (Fabric f : kFabrics) EXPECT_TRUE(carries_transport(f, true, true)) << to_string(f);
  EXPECT_FALSE(carries_transport(Fabric::kIwarp, false, true));   // uc
  EXPECT_FALSE(carries_transport(Fabric::kIwarp, false, false));  // ud
  EXPECT_TRUE(carries_transport(Fabric::kRoceV1, false, false));
  EXPECT_TRUE(carries_transport(Fabric::kInfiniBand, false, true));
}

TEST(Fabric, SiwSendsFromAKernelThreadAndRxeAndUnknownNicsDoNot) {
  // What the deterministic gate leaves a spinning row out by: siw's siw_tx thread shares the
  // sender's CPU (busy write bw 64 KiB: one message a scheduler tick).
  EXPECT_TRUE(sends_from_kernel_thread(0x626d74));
  EXPECT_FALSE(sends_from_kernel_thread(0xffffff));
  EXPECT_FALSE(sends_from_kernel_thread(0x02c9));  // Mellanox
}

TEST(ProviderFacts, ACoverCqReachesPastThePageOfSiwsRefusedKeyAndNoOtherProviderNeedsOne) {
  // siw refuses key 0x90000: with 4 KiB pages page 144, so pages 0 to 144 (145 of them) are
  // covered, 18560 entries of 32 bytes; with 64 KiB pages (arm64), pages 0 to 9.
  EXPECT_EQ(key_cover_entries(0x626d74, 4096), 18560u);
  EXPECT_EQ(key_cover_entries(0x626d74, 65536), 10u * 65536 / 32);
  for (const uint64_t page : {4096u, 16384u, 65536u}) {
    const uint64_t covered = uint64_t{key_cover_entries(0x626d74, page)} * 32;
    EXPECT_GT(covered, 0x90000u) << page;
    EXPECT_EQ(covered % page, 0u) << page;
  }
  EXPECT_EQ(key_cover_entries(0xffffff, 4096), 0u);  // rxe
  EXPECT_EQ(key_cover_entries(0x02c9, 4096), 0u);    // Mellanox
}

}  // namespace
}  // namespace rdmabench
