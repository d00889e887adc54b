// The address vector both bootstraps' out-of-band paths and every datagram's address handle
// take: the traffic class in the GRH (on RoCE v2 the IP header's DSCP and ECN byte) and the
// service level, as --tclass and --sl asked (before, the service level was always 0 and the
// traffic class never set).
#include "verbs/address_handle.h"

#include <gtest/gtest.h>

namespace rdmabench {
namespace {

QpAddress a_peer() {
  QpAddress peer;
  peer.qp_number = 0x42;
  peer.lid = 7;
  peer.gid[15] = 1;
  return peer;
}

TEST(AddressVector, CarriesTheTrafficClassAndServiceLevelAsked) {
  QpPath path;
  path.port = 1;
  path.sgid_index = 3;
  path.traffic_class = 106;  // DSCP 26, ECN capable
  path.service_level = 5;
  const ibv_ah_attr av = address_vector(a_peer(), path);
  EXPECT_EQ(av.is_global, 1);
  EXPECT_EQ(av.grh.traffic_class, 106);
  EXPECT_EQ(av.sl, 5);
  EXPECT_EQ(av.grh.sgid_index, 3);
  EXPECT_EQ(av.grh.dgid.raw[15], 1);
  EXPECT_EQ(av.dlid, 7);
}

TEST(AddressVector, WithoutAGrhOnlyTheServiceLevelApplies) {
  QpPath path;
  path.use_grh = false;  // InfiniBand within a subnet
  path.traffic_class = 106;
  path.service_level = 2;
  const ibv_ah_attr av = address_vector(a_peer(), path);
  EXPECT_EQ(av.is_global, 0);
  EXPECT_EQ(av.grh.traffic_class, 0);
  EXPECT_EQ(av.sl, 2);
}

TEST(AddressVector, DefaultsAreZeroAsBefore) {
  const ibv_ah_attr av = address_vector(a_peer(), QpPath{});
  EXPECT_EQ(av.grh.traffic_class, 0);
  EXPECT_EQ(av.sl, 0);
  EXPECT_EQ(av.grh.hop_limit, 64);
}

}  // namespace
}  // namespace rdmabench
