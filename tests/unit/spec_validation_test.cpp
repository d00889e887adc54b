#include "spec/spec_validation.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../fuzz/rxe_like_limits.h"
#include "bench/pattern_catalogue.h"
#include "cq/strategy.h"
#include "messages/spec_json.h"
#include "spec_fixture.h"
#include "verbs/verbs_error.h"

using namespace rdmabench;

namespace {

// The message of the Error(kUsage) that f throws, or "" when it throws nothing.
template <typename F>
std::string usage_error(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage) << e.what();
    return e.what();
  }
  return "";
}

nlohmann::json good_spec() {
  return to_json(a_spec());
}

std::string from_json_error(nlohmann::json j) {
  return usage_error([&] { spec_from_json(j); });
}

}  // namespace

TEST(SpecValidation, DefaultSpecIsValidEverywhere) {
  EXPECT_EQ(usage_error([] { validate_spec(a_spec(), rxe_like()); }), "");
  EXPECT_EQ(from_json_error(good_spec()), "");
}

// The spec layer lies below the pattern registry, so a spec starts with no pattern: one that is
// never given one is refused, not run as some pattern by default.
TEST(SpecValidation, ASpecWithoutAPatternIsRefused) {
  EXPECT_EQ(usage_error([] { validate_spec(TestSpec{}); }), "--pattern: no pattern was chosen");
  nlohmann::json j = good_spec();
  j["pattern"] = "(none)";
  EXPECT_NE(from_json_error(j).find("spec.pattern '(none)' is not one of send, write"),
            std::string::npos);
}

TEST(SpecValidation, ZeroSizeIsRefusedNamingTheField) {
  // Before: a server given size 0 divided by it (SIGFPE) or wrote before its buffer.
  auto j = good_spec();
  j["size"] = 0;
  const std::string e = from_json_error(j);
  EXPECT_NE(e.find("size"), std::string::npos) << e;
  EXPECT_NE(e.find("at least 1"), std::string::npos) << e;
}

TEST(SpecValidation, ZeroDepthsAndSignallingBeyondTheQueueAreRefused) {
  // Each field is named by the option that sets it, which is what a user typed.
  for (const auto& [key, option] :
       {std::pair{"tx_depth", "--tx-depth is 0"}, std::pair{"rx_depth", "--rx-depth is 0"},
        std::pair{"signal_every", "--signal-every is 0"}}) {
    auto j = good_spec();
    j[key] = 0;
    EXPECT_NE(from_json_error(j).find(option), std::string::npos) << key;
  }
  auto j = good_spec();
  j["signal_every"] = 129;  // tx_depth is 128
  EXPECT_NE(from_json_error(j).find("between 1 and tx_depth (128)"), std::string::npos);
}

TEST(SpecValidation, WrongTypesAndRangesAreRefusedNamingTheField) {
  const std::pair<const char*, nlohmann::json> cases[] = {
      {"size", "65536"},  {"size", -1},
      {"size", 1.5},      {"tx_depth", 1ull << 32},
      {"verify", 1},      {"pattern", "atomic"},
      {"cq", 7},          {"mtu", 1000},
      {"outs", "1"},      {"size", nlohmann::json()},
      {"rx_depth", true}, {"cm", nullptr},
  };
  for (const auto& [key, value] : cases) {
    auto j = good_spec();
    j[key] = value;
    const std::string e = from_json_error(j);
    EXPECT_NE(e.find(key), std::string::npos) << key << "=" << value.dump() << ": " << e;
  }
}

TEST(SpecValidation, MissingFieldsAndNonObjectsAreRefused) {
  auto j = good_spec();
  j.erase("rx_depth");
  EXPECT_NE(from_json_error(j).find("spec.rx_depth is missing"), std::string::npos);
  EXPECT_NE(from_json_error(nlohmann::json::array()).find("object"), std::string::npos);
  EXPECT_NE(from_json_error("write").find("object"), std::string::npos);
}

TEST(SpecValidation, DeviceLimitsAreNamed) {
  TestSpec s = a_spec();
  s.size = (1ull << 31) + 1;
  EXPECT_NE(usage_error([&] { validate_spec(s, rxe_like()); }).find("max_msg_sz 2147483648"),
            std::string::npos);
  s = a_spec();
  s.tx_depth = 16385;
  EXPECT_NE(usage_error([&] { validate_spec(s, rxe_like()); }).find("rxe0's max_qp_wr 16384"),
            std::string::npos);
  s = a_spec();
  s.tx_depth = 16384;  // each within max_qp_wr, together beyond max_cqe
  s.rx_depth = 16384;
  EXPECT_NE(usage_error([&] { validate_spec(s, rxe_like()); }).find("max_cqe 32767"),
            std::string::npos);
}

// A GID index is one side's own choice (LocalDevice), checked against its own device and the
// bootstrap, not part of the spec both sides share.
TEST(SpecValidation, ASidesGidIndexIsCheckedAgainstItsDeviceAndTheBootstrap) {
  LocalDevice local{"rxe0", 1, 1024};
  EXPECT_NE(usage_error([&] {
              validate_local_device(local, Bootstrap::kOob, rxe_like());
            }).find("--gid-index 1024: it must be below rxe0's GID table length 1024"),
            std::string::npos);
  local.gid_index = 3;
  EXPECT_NO_THROW(validate_local_device(local, Bootstrap::kOob, rxe_like()));
  EXPECT_NE(usage_error([&] {
              validate_local_device(local, Bootstrap::kRdmaCm);
            }).find("--gid-index is set over rdma_cm"),
            std::string::npos);
  local.gid_index.reset();
  EXPECT_NO_THROW(validate_local_device(local, Bootstrap::kRdmaCm, rxe_like()));
}

TEST(SpecValidation, ScaleOutRelationsAreNamed) {
  TestSpec s = a_spec();
  s.qps = 4;
  s.threads = 2;
  EXPECT_EQ(usage_error([&] { validate_spec(s, rxe_like()); }), "");
  s.threads = 5;  // more threads than QPs
  EXPECT_NE(usage_error([&] { validate_spec(s); }).find("--threads is"), std::string::npos);
  s.threads = 2;
  s.mode = Mode::kLatency;  // open loop, back to back: write's arrival is polled memory
  EXPECT_NE(usage_error([&] { validate_spec(s); }).find("or give --threads 4"), std::string::npos);
  s.threads = 4;
  EXPECT_EQ(usage_error([&] { validate_spec(s); }), "");
  s.bidir = true;  // bw only
  EXPECT_NE(usage_error([&] { validate_spec(s); }).find("--bidir is"), std::string::npos);
  s = a_spec();
  s.qps = kMaxQps + 1;
  s.threads = 1;
  EXPECT_NE(usage_error([&] { validate_spec(s); }).find("--qps is"), std::string::npos);
}

TEST(SpecValidation, QpsSharingACqMustFitTheDevicesCq) {
  TestSpec s = a_spec();
  s.tx_depth = 8192;
  s.rx_depth = 8192;  // 16384 per QP: fits rxe_like's 32767 CQEs once, not twice
  EXPECT_EQ(usage_error([&] { validate_spec(s, rxe_like()); }), "");
  s.qps = 2;
  EXPECT_NE(usage_error([&] { validate_spec(s, rxe_like()); }).find("max_cqe"), std::string::npos);
  s.cq_per_qp = true;  // each its own
  EXPECT_EQ(usage_error([&] { validate_spec(s, rxe_like()); }), "");
  s.cq_per_qp = false;
  s.threads = 2;  // one CQ per thread, one QP each
  EXPECT_EQ(usage_error([&] { validate_spec(s, rxe_like()); }), "");
}

TEST(SpecValidation, ScaleOutFieldsComeBackFromJson) {
  TestSpec s = a_spec();
  s.qps = 8;
  s.threads = 4;
  s.cq_per_qp = true;
  s.bidir = true;
  const TestSpec back = spec_from_json(to_json(s));
  EXPECT_EQ(back.qps, 8u);
  EXPECT_EQ(back.threads, 4u);
  EXPECT_TRUE(back.cq_per_qp);
  EXPECT_TRUE(back.bidir);
  EXPECT_EQ(back.name(), "write/bw/busy/65536/qps:8/threads:4/cq-per-qp/bidir");
  auto j = good_spec();
  j["threads"] = 2;  // more than the one QP
  EXPECT_NE(from_json_error(j).find("--threads is"), std::string::npos);
  j = good_spec();
  j.erase("bidir");
  EXPECT_NE(from_json_error(j).find("spec.bidir"), std::string::npos);
}

TEST(SpecValidation, ADatagramIsOnePacketAtMostThePathMtu) {
  TestSpec s = a_spec("send");
  s.transport = *parse_transport("ud");
  DeviceLimits rxe = rxe_like();
  rxe.active_mtu = 1024;
  s.size = 1024;
  EXPECT_EQ(usage_error([&] { validate_spec(s, rxe); }), "");
  s.size = 1025;
  EXPECT_NE(usage_error([&] {
              validate_spec(s, rxe);
            }).find("at most rxe0's path MTU, 1024 bytes (the port's active MTU)"),
            std::string::npos);
  s.size = 1024;
  s.mtu = 512;  // --mtu below the port's: the datagram's limit too
  EXPECT_NE(usage_error([&] { validate_spec(s, rxe); }).find("512 bytes (--mtu)"),
            std::string::npos);
  s.mtu = 0;
  s.size = 8192;  // beyond any device's MTU: refused with no device
  EXPECT_NE(usage_error([&] { validate_spec(s); }).find("one packet: at most the path MTU (4096"),
            std::string::npos);
  s.transport = *parse_transport("rc");  // a connected transport segments a message
  EXPECT_EQ(usage_error([&] { validate_spec(s, rxe); }), "");
}

TEST(SpecValidation, AServiceLevelOverRdmaCmIsRefusedNamingWhatToDo) {
  TestSpec s = a_spec();
  s.sl = 2;
  s.bootstrap = Bootstrap::kOob;
  EXPECT_EQ(usage_error([&] { validate_spec(s); }), "");
  s.bootstrap = Bootstrap::kRdmaCm;
  const std::string text = usage_error([&] { validate_spec(s); });
  EXPECT_NE(text.find("--sl"), std::string::npos) << text;
  EXPECT_NE(text.find("--cm oob"), std::string::npos) << text;
  s.sl.reset();
  s.tclass = 255;  // rdma_cm sets the traffic class itself (RDMA_OPTION_ID_TOS)
  EXPECT_EQ(usage_error([&] { validate_spec(s); }), "");
  s.tclass = 256;
  EXPECT_NE(usage_error([&] { validate_spec(s); }).find("--tclass is 256"), std::string::npos);
}

TEST(SpecValidation, ReadsInFlightNameBothOfTheDevicesAttributes) {
  DeviceLimits device = rxe_like();
  device.max_qp_rd_atom = 16;      // what a QP takes as the target
  device.max_qp_init_rd_atom = 4;  // what it starts: the smaller limits --outs
  TestSpec s = a_spec("read");
  s.outs = 4;
  EXPECT_EQ(usage_error([&] { validate_spec(s, device); }), "");
  s.outs = 5;
  const std::string text = usage_error([&] { validate_spec(s, device); });
  EXPECT_NE(text.find("--outs is 5"), std::string::npos) << text;
  EXPECT_NE(text.find("takes 16 (max_qp_rd_atom)"), std::string::npos) << text;
  EXPECT_NE(text.find("starts 4 (max_qp_init_rd_atom)"), std::string::npos) << text;
}

TEST(SpecValidation, AtomicsOnADeviceWithoutThemAreRefusedBeforeConnecting) {
  DeviceLimits device = rxe_like();
  device.max_qp_rd_atom = device.max_qp_init_rd_atom = 16;
  device.atomics = false;  // atomic_cap IBV_ATOMIC_NONE
  TestSpec s = a_spec("fetch_add");
  s.size = 8;
  const std::string text = usage_error([&] { validate_spec(s, device); });
  EXPECT_NE(text.find("fetch_add: rxe0 has no atomic operations"), std::string::npos) << text;
  s.pattern = parse_pattern("write").value();  // the rest of the patterns still run
  EXPECT_EQ(usage_error([&] { validate_spec(s, device); }), "");
  s = a_spec("compare_swap");
  s.size = 8;
  device.atomics = true;
  EXPECT_EQ(usage_error([&] { validate_spec(s, device); }), "");
}

// A search asks whether a point is accepted without catching anything: spec_refusal says why,
// the same words validate_spec throws, and the first reason in the checks' order.
TEST(SpecValidation, TheRefusalIsReturnedAsValidateSpecWouldThrowIt) {
  EXPECT_EQ(spec_refusal(a_spec()), "");
  EXPECT_EQ(spec_refusal(a_spec(), rxe_like()), "");
  TestSpec two_faults = a_spec();
  two_faults.tx_depth = 0;  // checked before --poll-batch
  two_faults.poll_batch = 0;
  EXPECT_EQ(spec_refusal(two_faults), "--tx-depth is 0; it must be at least 1");
  EXPECT_EQ(usage_error([&] { validate_spec(two_faults); }), spec_refusal(two_faults));
  TestSpec too_large = a_spec();
  too_large.size = 1ull << 32;
  EXPECT_NE(spec_refusal(too_large, rxe_like()).find("max_msg_sz 2147483648"), std::string::npos);
  EXPECT_EQ(usage_error([&] { validate_spec(too_large, rxe_like()); }),
            spec_refusal(too_large, rxe_like()));
}

// A spec refused on any device is not checked against one: its QPs per CQ divide by the thread
// count, which may be the zero that refused it.
TEST(SpecValidation, ASpecRefusedOnAnyDeviceIsNotCheckedAgainstOne) {
  TestSpec no_threads = a_spec();
  no_threads.threads = 0;
  EXPECT_EQ(spec_refusal(no_threads, rxe_like()).rfind("--threads is 0", 0), 0u);
}

// --validate checks each message as it lands: write bw's target, which takes no completion,
// checks its ring of slots, which needs every write to come (rc) and one sender (no --bidir);
// it is refused there, saying what to use instead, and taken everywhere else.
TEST(SpecValidation, ValidateIsRefusedForWriteBwOverUcOrBothWaysSayingWhatToUse) {
  TestSpec s = a_spec("write", Mode::kBandwidth, 64, 1, 1);
  s.validate = true;
  EXPECT_EQ(spec_refusal(s), "");
  EXPECT_TRUE(s.checks_landed_writes());
  TestSpec both = s;
  both.bidir = true;
  std::string why = spec_refusal(both);
  EXPECT_NE(why.find("--validate is set for write bw with --bidir"), std::string::npos) << why;
  TestSpec uc = s;
  uc.transport = *parse_transport("uc");
  why = spec_refusal(uc);
  EXPECT_NE(why.find("--validate is set for write bw over uc"), std::string::npos) << why;
  EXPECT_NE(why.find("write_imm"), std::string::npos) << why;
  for (const char* pattern : {"send", "send_imm", "write_imm", "read", "fetch_add"}) {
    TestSpec ok = a_spec(pattern, Mode::kBandwidth, 8, 1, 1);
    ok.validate = true;
    EXPECT_EQ(spec_refusal(ok), "") << pattern;
  }
  TestSpec lat = a_spec("write", Mode::kLatency, 64, 1, 1);
  lat.validate = true;
  EXPECT_EQ(spec_refusal(lat), "");
}

// The server learns --validate from the spec: it sizes its receive ring by it.
TEST(SpecValidation, ValidateCrossesInTheSpec) {
  TestSpec s = a_spec("send", Mode::kBandwidth, 64, 1, 1);
  s.validate = true;
  EXPECT_TRUE(spec_from_json(to_json(s)).validate);
  nlohmann::json j = to_json(s);
  j.erase("validate");
  EXPECT_NE(from_json_error(j).find("validate"), std::string::npos);
}

// lat over more QPs than threads is open loop (back to back without a rate): it needs a
// pattern whose reply a CQ shows, one CQ a thread and a polling client; --arrivals crosses in
// the spec (and a peer of before, which sends none, means fixed).
TEST(SpecValidation, OpenLoopLatencySaysWhatItRefuses) {
  TestSpec s = a_spec("send", Mode::kLatency, 8, 64, 2);
  EXPECT_EQ(spec_refusal(s), "");
  EXPECT_TRUE(s.open_loop());
  s.rate = 1000;
  EXPECT_EQ(spec_refusal(s), "");
  std::string why;
  const auto refused = [&](auto change, const std::string& said) {
    TestSpec t = s;
    change(t);
    const std::string text = spec_refusal(t);
    EXPECT_NE(text.find(said), std::string::npos) << text;
  };
  refused([](TestSpec& t) { t.pattern = *parse_pattern("write"); }, "use write_imm");
  refused([](TestSpec& t) { t.verify = true; }, "--verify in an open-loop lat run");
  refused([](TestSpec& t) { t.validate = true; }, "--validate in an open-loop lat run");
  refused([](TestSpec& t) { t.cq = parse_cq_choice("event"); },
          "give the server's alone, --cq client=busy,server=event");
  TestSpec server_event = s;
  server_event.cq = parse_cq_choice("client=busy,server=event");
  EXPECT_EQ(spec_refusal(server_event), "");
  TestSpec per_qp = server_event;  // each connection its own CQ, the lane's on one channel
  per_qp.cq_per_qp = true;
  EXPECT_EQ(spec_refusal(per_qp), "");
  for (const char* pattern : {"send_imm", "write_imm", "read", "fetch_add", "compare_swap"}) {
    TestSpec t = s;
    t.pattern = *parse_pattern(pattern);
    EXPECT_EQ(spec_refusal(t), "") << pattern;
  }
  TestSpec one = a_spec("send", Mode::kLatency, 8, 1, 1);
  one.arrivals = Arrivals::kPoisson;
  why = spec_refusal(one);
  EXPECT_NE(why.find("--arrivals poisson spaces lat's paced round trips"), std::string::npos)
      << why;
  one.rate = 500;
  EXPECT_EQ(spec_refusal(one), "");
  EXPECT_TRUE(one.open_loop());
  const TestSpec back = spec_from_json(to_json(one));
  EXPECT_EQ(back.arrivals, Arrivals::kPoisson);
  EXPECT_EQ(back.name(), "send/lat/busy/8/rate:500/arrivals:poisson");
  nlohmann::json before = to_json(s);
  before.erase("arrivals");
  EXPECT_EQ(spec_from_json(before).arrivals, Arrivals::kFixed);
  before["arrivals"] = "bursty";
  EXPECT_NE(from_json_error(before).find("arrivals"), std::string::npos);
  TestSpec most = a_spec("send", Mode::kLatency, 8, 1024, 4);
  most.rate = 10;
  EXPECT_EQ(spec_refusal(most), "") << "1024 connections";
  TestSpec one_cq = s;
  one_cq.threads = 1;  // 64 QPs of 128 + 512 entries on one CQ
  why = usage_error([&] { validate_spec(one_cq, rxe_like()); });
  EXPECT_NE(why.find("give smaller --tx-depth and --rx-depth"), std::string::npos) << why;
}
