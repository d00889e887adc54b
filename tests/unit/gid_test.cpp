#include "core/gid.h"

#include <gtest/gtest.h>

#include <vector>

using namespace rdmabench;

namespace {
GidEntry entry(uint32_t index, const char* text, GidType type) {
  GidEntry e;
  e.index = index;
  e.raw = parse_gid(text).value();
  e.type = type;
  return e;
}
}  // namespace

TEST(Gid, FormatsAndParsesRoundTrip) {
  for (const char* text : {"fe80::200:ff:fe00:0", "::ffff:127.0.0.1", "::1", "2001:db8::42"}) {
    auto raw = parse_gid(text);
    ASSERT_TRUE(raw.has_value()) << text;
    EXPECT_EQ(format_gid(*raw), text);
  }
}

TEST(Gid, RejectsMalformedText) {
  EXPECT_FALSE(parse_gid("not-a-gid").has_value());
  EXPECT_FALSE(parse_gid("1:2:3").has_value());
  EXPECT_FALSE(parse_gid("").has_value());
}

TEST(Gid, DetectsIpv4MappedAddresses) {
  EXPECT_EQ(mapped_ipv4(parse_gid("::ffff:10.99.0.1").value()), "10.99.0.1");
  EXPECT_FALSE(mapped_ipv4(parse_gid("fe80::1").value()).has_value());
  EXPECT_FALSE(mapped_ipv4(parse_gid("::1").value()).has_value());
  // ::ffff:0:a.b.c.d (IPv4-translated) is not IPv4-mapped.
  EXPECT_FALSE(mapped_ipv4(parse_gid("::ffff:0:1.2.3.4").value()).has_value());
}

TEST(Gid, LinkLocalAndZero) {
  EXPECT_TRUE(is_ipv6_link_local(parse_gid("fe80::200:ff:fe00:0").value()));
  EXPECT_FALSE(is_ipv6_link_local(parse_gid("2001:db8::1").value()));
  EXPECT_TRUE(is_zero(parse_gid("::").value()));
}

TEST(Gid, TypeNames) {
  EXPECT_EQ(to_string(GidType::kIb), "IB");
  EXPECT_EQ(to_string(GidType::kRoceV1), "RoCE v1");
  EXPECT_EQ(to_string(GidType::kRoceV2), "RoCE v2");
}

TEST(GidChoice, PrefersRoceV2Ipv4OnTheRxeLoopbackTable) {
  // The table rxe on lo shows: link-local v2, IPv4-mapped v2, ::1 v2.
  std::vector<GidEntry> table = {entry(0, "fe80::200:ff:fe00:0", GidType::kRoceV2),
                                 entry(1, "::ffff:127.0.0.1", GidType::kRoceV2),
                                 entry(2, "::1", GidType::kRoceV2)};
  EXPECT_EQ(choose_default_gid(table, false), 1u);
}

TEST(GidChoice, PrefersV2OverV1EvenAtHigherIndex) {
  std::vector<GidEntry> table = {entry(0, "fe80::1", GidType::kRoceV1),
                                 entry(1, "fe80::1", GidType::kRoceV2),
                                 entry(2, "::ffff:192.168.1.5", GidType::kRoceV1),
                                 entry(3, "::ffff:192.168.1.5", GidType::kRoceV2)};
  EXPECT_EQ(choose_default_gid(table, false), 3u);
}

TEST(GidChoice, FallsBackToGlobalIpv6ThenLinkLocalThenV1) {
  std::vector<GidEntry> v6 = {entry(0, "fe80::1", GidType::kRoceV2),
                              entry(1, "2001:db8::1", GidType::kRoceV2)};
  EXPECT_EQ(choose_default_gid(v6, false), 1u);
  std::vector<GidEntry> ll = {entry(4, "fe80::1", GidType::kRoceV1),
                              entry(5, "fe80::1", GidType::kRoceV2)};
  EXPECT_EQ(choose_default_gid(ll, false), 5u);
  std::vector<GidEntry> v1 = {entry(2, "fe80::1", GidType::kRoceV1),
                              entry(3, "::ffff:10.0.0.1", GidType::kRoceV1)};
  EXPECT_EQ(choose_default_gid(v1, false), 3u);
}

TEST(GidChoice, InfinibandUsesLowestIndex) {
  std::vector<GidEntry> table = {entry(3, "fe80::2", GidType::kIb),
                                 entry(0, "fe80::1", GidType::kIb)};
  EXPECT_EQ(choose_default_gid(table, true), 0u);
}

TEST(GidChoice, EmptyOrAllZeroTableHasNoChoice) {
  EXPECT_FALSE(choose_default_gid({}, false).has_value());
  std::vector<GidEntry> zeros = {entry(0, "::", GidType::kRoceV2)};
  EXPECT_FALSE(choose_default_gid(zeros, false).has_value());
}

// One host, one device (rxe on lo): the server's path GID is in the client's port's table, at
// whatever index the server chose. Another host's port (veth's other end, a remote RoCE port)
// has GIDs of its own; the zero GID names no port.
TEST(GidPort, APeersPathGidInThisPortsTableIsThisPort) {
  const std::vector<GidEntry> lo = {entry(0, "fe80::200:ff:fe00:0", GidType::kRoceV1),
                                    entry(1, "fe80::200:ff:fe00:0", GidType::kRoceV2),
                                    entry(2, "::ffff:127.0.0.1", GidType::kRoceV1),
                                    entry(3, "::ffff:127.0.0.1", GidType::kRoceV2)};
  EXPECT_TRUE(names_this_port(parse_gid("::ffff:127.0.0.1").value(), lo));
  EXPECT_TRUE(names_this_port(parse_gid("fe80::200:ff:fe00:0").value(), lo));
  EXPECT_FALSE(names_this_port(parse_gid("::ffff:10.99.0.1").value(), lo));
  EXPECT_FALSE(names_this_port(parse_gid("fe80::5054:ff:fe12:3456").value(), lo));
  EXPECT_FALSE(names_this_port(RawGid{}, lo));
  const std::vector<GidEntry> with_zero = {entry(0, "::", GidType::kIb)};
  EXPECT_FALSE(names_this_port(RawGid{}, with_zero));
  EXPECT_FALSE(names_this_port(parse_gid("::ffff:127.0.0.1").value(), {}));
}
