#include "spec/test_spec.h"
#include "spec/spec_validation.h"

#include <gtest/gtest.h>

#include "bench/pattern_catalogue.h"
#include "cq/strategy.h"
#include "messages/spec_json.h"
#include "spec_fixture.h"
#include "verbs/verbs_error.h"

using namespace rdmabench;

namespace {
Pattern pattern(const char* name) {
  const auto p = parse_pattern(name);
  if (!p) throw std::runtime_error(std::string("no pattern ") + name);
  return *p;
}
}  // namespace

TEST(Sizes, RangesArePowersOfTwo) {
  EXPECT_EQ(parse_sizes("2:16"), (std::vector<uint64_t>{2, 4, 8, 16}));
  EXPECT_EQ(parse_sizes("1K:4K"), (std::vector<uint64_t>{1024, 2048, 4096}));
  EXPECT_EQ(parse_sizes("2:8M").back(), 8ull << 20);
  EXPECT_EQ(parse_sizes("2:8M").size(), 23u);
}

TEST(Sizes, ListsAreSortedAndDeduplicated) {
  EXPECT_EQ(parse_sizes("1M,2,4096,2"), (std::vector<uint64_t>{2, 4096, 1u << 20}));
  EXPECT_EQ(parse_sizes("64k"), (std::vector<uint64_t>{65536}));
}

TEST(Sizes, ASizeBeyond64BitsIsRefusedNotWrapped) {
  // 17179869185 GiB is 2^64 + 2^30 bytes: it wrapped round to 1 GiB and was taken.
  EXPECT_EQ(parse_size("16G"), std::optional<uint64_t>(16ull << 30));
  EXPECT_EQ(parse_size("17179869185G"), std::nullopt);
  try {
    parse_sizes("17179869185G");
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("is too large"), std::string::npos) << e.what();
  }
}

TEST(Sizes, MalformedIsAUsageError) {
  for (const char* bad : {"", "0", "abc", "8:2", "2:", "1.5K", "-4", "2,,x"}) {
    try {
      parse_sizes(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), ExitCode::kUsage) << bad;
    }
  }
}

TEST(Spec, NameAndJsonRoundTrip) {
  TestSpec s = a_spec();
  s.pattern = pattern("write_imm");
  s.mode = Mode::kLatency;
  s.cq = parse_cq_choice("event");
  s.size = 4096;
  EXPECT_EQ(s.name(), "write_imm/lat/event/4096");
  const TestSpec back = spec_from_json(to_json(s));
  EXPECT_EQ(back.name(), s.name());
  EXPECT_EQ(back.tx_depth, s.tx_depth);
}

TEST(Spec, EachSideKeepsItsStrategyThroughJson) {
  TestSpec s = a_spec();
  s.pattern = pattern("send");
  s.mode = Mode::kLatency;
  s.size = 2;
  s.cq = parse_cq_choice("server=moderated:16,50,client=hybrid:20");
  s.poll_batch = 4;
  EXPECT_EQ(s.name(), "send/lat/client=hybrid:20,server=moderated:16,50/2");
  const TestSpec back = spec_from_json(to_json(s));
  EXPECT_EQ(back.cq.of(Side::kClient).text(), "hybrid:20");
  EXPECT_EQ(back.cq.of(Side::kServer).text(), "moderated:16,50");
  EXPECT_EQ(back.poll_batch, 4u);
}

TEST(Spec, PollBatchOutsideItsRangeIsRefused) {
  for (const uint32_t batch : {0u, kMaxPollBatch + 1}) {
    nlohmann::json j = to_json(a_spec());
    j["poll_batch"] = batch;
    EXPECT_THROW(spec_from_json(j), Error) << batch;
  }
}

TEST(Spec, QpTimeoutTravelsToTheServerAndIsCheckedThere) {
  TestSpec s = a_spec();
  EXPECT_FALSE(s.qp_timeout);  // the bootstrap's own: 14 out of band, rdma_cm's choice
  EXPECT_FALSE(spec_from_json(to_json(s)).qp_timeout);
  s.qp_timeout = 0;  // no retransmission timer
  EXPECT_EQ(spec_from_json(to_json(s)).qp_timeout, 0u);
  nlohmann::json j = to_json(a_spec());
  j["qp_timeout"] = kMaxQpTimeout + 1;  // the QP attribute has 5 bits
  EXPECT_THROW(spec_from_json(j), Error);
  j.erase("qp_timeout");  // a client that does not say is refused, not guessed for
  EXPECT_THROW(spec_from_json(j), Error);
}

TEST(Spec, TrafficClassAndServiceLevelTravelToTheServerAndNameTheRow) {
  TestSpec s = a_spec();
  EXPECT_FALSE(s.tclass);  // unset: the device's default, 0
  EXPECT_FALSE(spec_from_json(to_json(s)).tclass);
  EXPECT_FALSE(spec_from_json(to_json(s)).sl);
  s.tclass = 106;  // DSCP 26, ECN capable
  s.sl = 3;
  EXPECT_EQ(s.name(), "write/bw/busy/65536/tclass:106/sl:3");
  const TestSpec back = spec_from_json(to_json(s));
  EXPECT_EQ(back.tclass, 106u);
  EXPECT_EQ(back.sl, 3u);
  EXPECT_EQ(back.name(), s.name());
  nlohmann::json j = to_json(a_spec());
  j["tclass"] = kMaxTclass + 1;  // one byte
  EXPECT_THROW(spec_from_json(j), Error);
  j = to_json(a_spec());
  j["sl"] = kMaxSl + 1;  // four bits
  EXPECT_THROW(spec_from_json(j), Error);
  j = to_json(a_spec());
  j.erase("tclass");  // a client that does not say is refused, not guessed for
  EXPECT_THROW(spec_from_json(j), Error);
}

TEST(Spec, PostListAndInlineTravelToTheServerAndNameTheRow) {
  TestSpec s = a_spec();
  s.pattern = pattern("send");
  s.size = 64;
  s.post_list = 8;
  s.inline_size = 0;
  EXPECT_EQ(s.name(), "send/bw/busy/64/post_list:8/inline:0");
  const TestSpec back = spec_from_json(to_json(s));
  EXPECT_EQ(back.post_list, 8u);
  EXPECT_EQ(back.inline_size, 0u);
  EXPECT_EQ(inline_threshold(back, 220), 0u);  // never inline
  s.inline_size.reset();
  EXPECT_FALSE(spec_from_json(to_json(s)).inline_size);
  EXPECT_EQ(inline_threshold(s, 220), 220u);  // automatic: what the QP granted
  s.inline_size = 64;
  EXPECT_EQ(inline_threshold(s, 220), 64u);
  EXPECT_EQ(inline_threshold(s, 32), 32u);  // never beyond the grant
  for (const char* key : {"post_list", "inline"}) {
    nlohmann::json j = to_json(s);
    j.erase(key);  // protocol 8 carries both: a client that does not say is refused
    EXPECT_THROW(spec_from_json(j), Error) << key;
  }
  nlohmann::json j = to_json(s);
  j["post_list"] = 0;
  EXPECT_THROW(spec_from_json(j), Error);
  j = to_json(s);
  j["inline"] = kMaxInline + 1;
  EXPECT_THROW(spec_from_json(j), Error);
}

TEST(Spec, SharedReceivesAreNamedCarriedAndOnlyWhereTheTargetReceives) {
  TestSpec s = a_spec("send", Mode::kBandwidth, 64, 4, 2);
  s.srq = true;
  EXPECT_EQ(s.name(), "send/bw/busy/64/qps:4/threads:2/srq");
  EXPECT_TRUE(spec_from_json(to_json(s)).srq);
  nlohmann::json j = to_json(s);
  j.erase("srq");  // protocol 9 carries it: a client that does not say is refused
  EXPECT_THROW(spec_from_json(j), Error);
  for (const char* pattern : {"send_imm", "write_imm"}) {
    s.pattern = *parse_pattern(pattern);
    EXPECT_NO_THROW(validate_spec(s)) << pattern;
  }
  for (const char* pattern : {"write", "read", "fetch_add"}) {
    s.pattern = *parse_pattern(pattern);
    s.size = pattern == std::string("fetch_add") ? 8 : 64;
    try {
      validate_spec(s);
      ADD_FAILURE() << pattern << " with srq was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), ExitCode::kUsage);
      EXPECT_NE(std::string(e.what()).find("takes no receives"), std::string::npos) << e.what();
    }
  }
}

TEST(Spec, MalformedJsonIsAUsageError) {
  EXPECT_THROW(spec_from_json(nlohmann::json{{"pattern", "teleport"}}), Error);
  nlohmann::json j = to_json(a_spec());
  j["pattern"] = "teleport";
  EXPECT_THROW(spec_from_json(j), Error);
}

TEST(Spec, ReceiveRolesAndLatencyKind) {
  TestSpec s = a_spec();
  s.pattern = pattern("send");
  s.mode = Mode::kBandwidth;
  EXPECT_TRUE(s.server_receives());
  EXPECT_FALSE(s.client_receives());
  s.bidir = true;  // the server streams back: the client receives too
  EXPECT_TRUE(s.client_receives());
  s.bidir = false;
  s.mode = Mode::kLatency;
  EXPECT_TRUE(s.client_receives());
  s.pattern = pattern("read");
  EXPECT_FALSE(s.server_receives());
  EXPECT_FALSE(s.half_round_trip());
  s.pattern = pattern("write");
  EXPECT_TRUE(s.half_round_trip());
}

TEST(Spec, QpsSpreadOverThreadsAndTheirCqs) {
  TestSpec s = a_spec();
  s.qps = 5;
  s.threads = 2;
  EXPECT_EQ(s.cq_count(), 2u);
  EXPECT_EQ(s.cq_of_qp(4), 0u);  // QP i on thread i % threads, whose CQ it shares
  EXPECT_EQ(s.cq_of_qp(3), 1u);
  EXPECT_EQ(s.qps_per_cq(), 3u);
  s.cq_per_qp = true;
  EXPECT_EQ(s.cq_count(), 5u);
  EXPECT_EQ(s.cq_of_qp(4), 4u);
  EXPECT_EQ(s.qps_per_cq(), 1u);
}

// 64KiB was refused as "not a size" and 64KB too, without saying that K is KiB.
TEST(Sizes, KiBIsTakenAndKBIsToldThatKMeansKiB) {
  EXPECT_EQ(parse_sizes("64KiB,1MiB,2gib"), (std::vector<uint64_t>{65536, 1u << 20, 2ull << 30}));
  EXPECT_EQ(parse_sizes("4KiB:16KiB"), (std::vector<uint64_t>{4096, 8192, 16384}));
  for (const char* decimal : {"64KB", "1MB", "2gb", "4kB:16kB"}) {
    try {
      parse_sizes(decimal);
      ADD_FAILURE() << "accepted '" << decimal << "'";
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), ExitCode::kUsage);
      EXPECT_NE(std::string(e.what()).find("K, M and G are KiB, MiB and GiB (powers of 1024)"),
                std::string::npos)
          << e.what();
    }
  }
}
