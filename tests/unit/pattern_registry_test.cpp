// The pattern registry: descriptions that agree with themselves, names the spec and the
// command line resolve, and --pattern against --sizes decided by each pattern's size rule.
#include <gtest/gtest.h>

#include <set>

#include "bench/pattern_catalogue.h"
#include "core/error.h"
#include "messages/spec_json.h"
#include "spec/pattern_info.h"
#include "spec/spec_validation.h"
#include "spec/test_spec.h"
#include "spec_fixture.h"
#include "verbs/work_request.h"

using namespace rdmabench;

namespace {

// A pattern that moves 8-byte operands only, as an atomic does (none is registered yet).
constexpr PatternInfo kEightBytes{.name = "eight",
                                  .summary = "test only",
                                  .opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
                                  .target_receives = false,
                                  .receive_holds_data = false,
                                  .immediate = Immediate::kNone,
                                  .half_round_trip = false,
                                  .arrival = Arrival::kCompletion,
                                  .remote_access = IBV_ACCESS_REMOTE_ATOMIC,
                                  .sizes = {8, 8, "operands are 8 bytes"},
                                  .needs = {}};

bool carries_immediate(ibv_wr_opcode op) {
  return op == IBV_WR_SEND_WITH_IMM || op == IBV_WR_RDMA_WRITE_WITH_IMM;
}

}  // namespace

TEST(PatternRegistry, NamesAreUniqueAndResolve) {
  std::set<std::string> names;
  for (const Pattern& p : registered_patterns()) {
    EXPECT_TRUE(names.insert(p.name()).second) << p.name();
    EXPECT_EQ(parse_pattern(p.name()), p);
    EXPECT_FALSE(p->summary.empty()) << p.name();
  }
  EXPECT_FALSE(parse_pattern("teleport"));
  EXPECT_EQ(names, (std::set<std::string>{"send", "write", "write_imm", "read", "send_imm",
                                          "fetch_add", "compare_swap"}));
  EXPECT_EQ(pattern_names(), "send, write, write_imm, read, send_imm, fetch_add, compare_swap");
}

TEST(PatternRegistry, EachDescriptionAgreesWithItself) {
  for (const Pattern& p : registered_patterns()) {
    const PatternInfo& i = p.info();
    // A receive can hold data only where the target takes receives at all.
    EXPECT_TRUE(!i.receive_holds_data || i.target_receives) << p.name();
    // A sequence in the immediate needs an opcode that carries one, and a receive to read it.
    EXPECT_EQ(i.immediate == Immediate::kSequence, carries_immediate(i.opcode)) << p.name();
    EXPECT_TRUE(i.immediate == Immediate::kNone || i.target_receives) << p.name();
    // lat sees arrival by a receive exactly where the target takes receives.
    EXPECT_EQ(i.arrival == Arrival::kReceive, i.target_receives) << p.name();
    // One-sided RDMA needs the peer's buffer to grant it.
    if (i.opcode == IBV_WR_RDMA_WRITE || i.opcode == IBV_WR_RDMA_WRITE_WITH_IMM) {
      EXPECT_TRUE(i.remote_access & IBV_ACCESS_REMOTE_WRITE) << p.name();
    }
    if (i.opcode == IBV_WR_RDMA_READ) {
      EXPECT_TRUE(i.remote_access & IBV_ACCESS_REMOTE_READ) << p.name();
    }
    // Atomics: the counter grants them, and a read of it back (--verify); 8-byte operands, over
    // a reliable connection, with the old value coming back as the arrival.
    if (is_atomic(i.opcode)) {
      EXPECT_TRUE(i.remote_access & IBV_ACCESS_REMOTE_ATOMIC) << p.name();
      EXPECT_TRUE(i.remote_access & IBV_ACCESS_REMOTE_READ) << p.name();
      EXPECT_EQ(i.sizes.min, 8u) << p.name();
      EXPECT_EQ(i.sizes.max, 8u) << p.name();
      EXPECT_TRUE(i.needs.reliable && i.needs.connected) << p.name();
      EXPECT_EQ(i.arrival, Arrival::kCompletion) << p.name();
      EXPECT_FALSE(i.half_round_trip) << p.name();
    }
    EXPECT_TRUE(i.sizes.accepts(i.sizes.min)) << p.name();
  }
}

TEST(PatternRegistry, EveryPatternTravelsInTheSpec) {
  for (const Pattern& p : registered_patterns()) {
    TestSpec s = a_spec();
    s.pattern = p;
    s.size = p->sizes.accepts(64) ? 64 : p->sizes.min;
    const TestSpec back = spec_from_json(to_json(s));
    EXPECT_EQ(back.pattern, p);
    EXPECT_EQ(back.name(), p.name() + "/bw/busy/" + std::to_string(s.size));
  }
}

TEST(PatternRegistry, SendImmReceivesDataAndASequence) {
  const Pattern p = *parse_pattern("send_imm");
  EXPECT_EQ(p->opcode, IBV_WR_SEND_WITH_IMM);
  TestSpec s = a_spec();
  s.pattern = p;
  EXPECT_TRUE(s.server_receives());
  EXPECT_TRUE(s.half_round_trip());
}

TEST(PatternSizes, AllLeavesOutWhatARuleRefusesAndSaysWhy) {
  const Pattern send = *parse_pattern("send");
  const Pattern eight(kEightBytes);
  const PatternSizes got =
      expand_patterns({send, eight}, {2, 8, 64}, default_transport(), false, true);
  ASSERT_EQ(got.runs.size(), 2u);
  EXPECT_EQ(got.runs[0].first, send);
  EXPECT_EQ(got.runs[0].second, (std::vector<uint64_t>{2, 8, 64}));
  EXPECT_EQ(got.runs[1].first, eight);
  EXPECT_EQ(got.runs[1].second, (std::vector<uint64_t>{8}));
  ASSERT_EQ(got.skipped.size(), 2u);
  EXPECT_EQ(got.skipped[0].size, 2u);
  EXPECT_EQ(got.skipped[1].size, 64u);
  EXPECT_EQ(got.skipped[1].why, "operands are 8 bytes");
}

TEST(PatternSizes, ANamedPatternWithASizeItRefusesIsAUsageError) {
  try {
    expand_patterns({Pattern(kEightBytes)}, {8, 64}, default_transport(), false, false);
    FAIL() << "accepted 64 B for an 8-byte pattern";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage);
    EXPECT_NE(std::string(e.what()).find("eight"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("operands are 8 bytes"), std::string::npos) << e.what();
  }
}

TEST(PatternSizes, NoPatternAtAnySizeIsAUsageError) {
  EXPECT_THROW(expand_patterns({Pattern(kEightBytes)}, {2, 4}, default_transport(), false, true),
               Error);
}

TEST(PatternSizes, TheSpecChecksTheRuleToo) {
  TestSpec s = a_spec();
  s.pattern = Pattern(kEightBytes);
  s.size = 8;
  EXPECT_NO_THROW(validate_spec(s));
  s.size = 16;  // a crafted spec on the control port gets the same answer
  EXPECT_THROW(validate_spec(s), Error);
}

namespace rdmabench {
namespace {
// A made-up datagram transport: neither reliable nor connected (the shape of UD).
constexpr TransportInfo kDatagram{.name = "datagram",
                                  .summary = "test only",
                                  .qp_type = IBV_QPT_UD,
                                  .cm_port_space = RDMA_PS_UDP,
                                  .reliable = false,
                                  .connected = false,
                                  .init_mask = 0,
                                  .rtr_mask = 0,
                                  .rts_mask = 0};
}  // namespace

TEST(PatternTransports, EachRegisteredPatternRunsOverTheDefaultTransport) {
  EXPECT_EQ(default_transport()->name, "rc");
  for (const Pattern& p : registered_patterns())
    EXPECT_TRUE(p->needs.met_by(default_transport().info())) << p.name();
}

TEST(PatternTransports, AllLeavesOutWhatTheTransportCannotCarryAndSaysWhy) {
  const Pattern send = *parse_pattern("send");
  const Pattern read = *parse_pattern("read");
  const Pattern write = *parse_pattern("write");
  const PatternSizes got =
      expand_patterns({send, read, write}, {64}, Transport(kDatagram), false, true);
  ASSERT_EQ(got.runs.size(), 1u);
  EXPECT_EQ(got.runs[0].first, send);
  ASSERT_EQ(got.skipped.size(), 2u);
  EXPECT_EQ(got.skipped[0].pattern, read);
  EXPECT_EQ(got.skipped[0].size, 0u);
  EXPECT_EQ(got.skipped[0].why, "needs a reliable connected transport, not datagram");
  EXPECT_EQ(got.skipped[1].why, "needs a connected transport, not datagram");
}

TEST(PatternTransports, ANamedPatternTheTransportCannotCarryIsAUsageError) {
  const Pattern read = *parse_pattern("read");
  try {
    expand_patterns({read}, {64}, Transport(kDatagram), false, false);
    FAIL() << "read accepted over a datagram transport";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage);
    EXPECT_EQ(std::string(e.what()),
              "--pattern read: needs a reliable connected transport, not datagram");
  }
}

TEST(PatternTransports, TheSpecChecksTheTransportToo) {
  TestSpec s = a_spec("read");
  s.transport = Transport(kDatagram);
  try {
    validate_spec(s);
    FAIL() << "a crafted spec ran read over a datagram transport";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "--transport is datagram; read needs a reliable connected "
              "transport");
  }
  s.pattern = *parse_pattern("send");
  EXPECT_NO_THROW(validate_spec(s));
  EXPECT_EQ(s.name(), "send/bw/busy/65536/datagram");  // the name keeps transports apart
  EXPECT_EQ(a_spec("send").name(), "send/bw/busy/65536");
}

TEST(PatternTransports, TheSpecCarriesItsTransportOnTheWire) {
  nlohmann::json j = to_json(a_spec("send"));
  EXPECT_EQ(j["transport"], "rc");
  EXPECT_EQ(spec_from_json(j).transport, default_transport());
  j["transport"] = "xrc";
  EXPECT_THROW(spec_from_json(j), Error);
  j.erase("transport");
  EXPECT_THROW(spec_from_json(j), Error);
}

}  // namespace rdmabench
