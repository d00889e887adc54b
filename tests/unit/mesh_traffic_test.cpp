// mesh --traffic: the plans' flows (who sends where, on which server slot, once each) and the
// verdict on each host's load, with a planted slow host under every pattern.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "core/error.h"
#include "core/exit_codes.h"
#include "mesh/traffic.h"
#include "mesh/traffic_report.h"
#include "mesh/traffic_verdict.h"

using namespace rdmabench;

namespace {

ExitCode usage_code(TrafficKind kind, int ranks, int fan) {
  try {
    TrafficPlan::make(kind, ranks, fan);
  } catch (const Error& e) {
    return e.exit_code();
  }
  return ExitCode::kOk;
}

// A round's flows: no server slot taken twice, no rank sending to itself, each flow found from
// its client.
void expect_sound_round(const TrafficPlan& plan, size_t round) {
  std::set<std::pair<int, int>> slots;
  const auto flows = plan.flows_in(round);
  EXPECT_EQ(plan.flow_count(round), flows.size()) << to_string(plan.kind()) << " round " << round;
  for (const TrafficFlow& f : flows) {
    EXPECT_NE(f.client, f.server);
    EXPECT_GE(f.slot, 0);
    EXPECT_LT(f.slot, plan.slots());
    EXPECT_TRUE(slots.emplace(f.server, f.slot).second) << f.server << " slot " << f.slot;
  }
}

// Flows the plan gives, each measured at `rate` unless one end is `slow_rank`, at `slow`.
std::vector<FlowRow> measured(const TrafficPlan& plan, int slow_rank, double rate, double slow) {
  std::vector<FlowRow> rows;
  for (size_t k = 0; k < plan.rounds(); ++k) {
    const auto flows = plan.flows_in(k);
    // a receiver's link is shared by the flows into it
    std::map<int, int> into;
    for (const TrafficFlow& f : flows) ++into[f.server];
    std::map<int, int> out_of;
    for (const TrafficFlow& f : flows) ++out_of[f.client];
    for (const TrafficFlow& f : flows) {
      const bool touches_slow = f.client == slow_rank || f.server == slow_rank;
      const int share = std::max(into[f.server], out_of[f.client]);
      rows.push_back({static_cast<uint32_t>(k), f.client, f.server,
                      (touches_slow ? slow : rate) / share, 0, ""});
    }
  }
  return rows;
}

}  // namespace

TEST(TrafficPlan, KindsByTheirWords) {
  for (const char* word : {"pairs", "incast", "fan-out", "all-to-all", "bisection", "ring"}) {
    const auto kind = parse_traffic_kind(word);
    ASSERT_TRUE(kind) << word;
    EXPECT_EQ(to_string(*kind), word);
  }
  EXPECT_FALSE(parse_traffic_kind("Incast"));
  EXPECT_FALSE(parse_traffic_kind(""));
  EXPECT_EQ(traffic_kind_names(), "pairs, incast, fan-out, all-to-all, bisection, ring");
}

TEST(TrafficPlan, IncastRotatesTheReceiverAndGivesEachSenderItsSlot) {
  const auto plan = TrafficPlan::make(TrafficKind::kIncast, 4, 0);
  EXPECT_EQ(plan.fan(), 3);
  EXPECT_EQ(plan.slots(), 3);
  ASSERT_EQ(plan.rounds(), 4u);
  for (size_t k = 0; k < plan.rounds(); ++k) {
    const auto flows = plan.flows_in(k);
    ASSERT_EQ(flows.size(), 3u);
    for (const TrafficFlow& f : flows) EXPECT_EQ(f.server, static_cast<int>(k));
    expect_sound_round(plan, k);
  }
  EXPECT_EQ(plan.flows_from(2, 0), (std::vector<TrafficFlow>{{2, 0, 1}}));
  EXPECT_TRUE(plan.flows_from(0, 0).empty());  // the receiver sends nothing
  const auto two = TrafficPlan::make(TrafficKind::kIncast, 8, 2);
  EXPECT_EQ(two.flows_in(6), (std::vector<TrafficFlow>{{0, 6, 1}, {7, 6, 0}}));
  EXPECT_EQ(two.most_flows_of_a_client(), 2u);
}

TEST(TrafficPlan, FanOutSendsFromOneRankARound) {
  const auto plan = TrafficPlan::make(TrafficKind::kFanOut, 5, 2);
  ASSERT_EQ(plan.rounds(), 5u);
  EXPECT_EQ(plan.slots(), 1);
  EXPECT_EQ(plan.flows_in(4), (std::vector<TrafficFlow>{{4, 0, 0}, {4, 1, 0}}));
  for (size_t k = 0; k < plan.rounds(); ++k) expect_sound_round(plan, k);
}

TEST(TrafficPlan, AllToAllIsOneRoundOfEveryPair) {
  const auto plan = TrafficPlan::make(TrafficKind::kAllToAll, 4, 0);
  ASSERT_EQ(plan.rounds(), 1u);
  const auto flows = plan.flows_in(0);
  EXPECT_EQ(flows.size(), 12u);
  std::set<std::pair<int, int>> pairs;
  for (const TrafficFlow& f : flows) pairs.emplace(f.client, f.server);
  EXPECT_EQ(pairs.size(), 12u);
  expect_sound_round(plan, 0);
}

TEST(TrafficPlan, RingSendsToTheNextThenToTheOneAfter) {
  const auto three = TrafficPlan::make(TrafficKind::kRing, 3, 0);
  ASSERT_EQ(three.rounds(), 1u);
  EXPECT_EQ(three.flows_in(0), (std::vector<TrafficFlow>{{0, 1, 0}, {1, 2, 0}, {2, 0, 0}}));
  const auto four = TrafficPlan::make(TrafficKind::kRing, 4, 0);
  ASSERT_EQ(four.rounds(), 2u);
  for (size_t k = 0; k < four.rounds(); ++k) expect_sound_round(four, k);
  EXPECT_EQ(four.flows_in(1),
            (std::vector<TrafficFlow>{{0, 2, 0}, {1, 3, 0}, {2, 0, 0}, {3, 1, 0}}));
  // every rank beside rank 2 has a round in which neither its target nor its source is 2
  for (int h : {1, 3}) {
    bool clean = false;
    for (size_t k = 0; k < four.rounds(); ++k) {
      bool touches = false;
      for (const TrafficFlow& f : four.flows_in(k))
        touches |= (f.client == h && f.server == 2) || (f.server == h && f.client == 2);
      clean |= !touches;
    }
    EXPECT_TRUE(clean) << h;
  }
}

TEST(TrafficPlan, BisectionPairsTheHalvesTwoWays) {
  const auto plan = TrafficPlan::make(TrafficKind::kBisection, 6, 0);
  ASSERT_EQ(plan.rounds(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    std::map<int, int> partner;
    for (const TrafficFlow& f : plan.flows_in(k)) {
      EXPECT_NE(f.client < 3, f.server < 3) << "a flow across the halves";
      partner[f.client] = f.server;
    }
    ASSERT_EQ(partner.size(), 6u);
    for (const auto& [a, b] : partner) EXPECT_EQ(partner[b], a) << "both ways";
    expect_sound_round(plan, k);
  }
  EXPECT_EQ(plan.flow_count(2), 0u);
  for (int r = 0; r < 6; ++r)
    EXPECT_NE(plan.flows_from(r, 0).front().server, plan.flows_from(r, 1).front().server);
  EXPECT_EQ(TrafficPlan::make(TrafficKind::kBisection, 2, 0).rounds(), 1u);
}

TEST(TrafficPlan, RefusesWhatCannotRun) {
  EXPECT_EQ(usage_code(TrafficKind::kPairs, 4, 0), ExitCode::kUsage);
  EXPECT_EQ(usage_code(TrafficKind::kRing, 1, 0), ExitCode::kUsage);
  EXPECT_EQ(usage_code(TrafficKind::kIncast, 4, 4), ExitCode::kUsage);
  EXPECT_EQ(usage_code(TrafficKind::kIncast, 4, -1), ExitCode::kUsage);
  EXPECT_EQ(usage_code(TrafficKind::kRing, 4, 2), ExitCode::kUsage);
  EXPECT_EQ(usage_code(TrafficKind::kBisection, 5, 0), ExitCode::kUsage);
  EXPECT_EQ(usage_code(TrafficKind::kAllToAll, 200, 65), ExitCode::kUsage);
  EXPECT_EQ(TrafficPlan::make(TrafficKind::kAllToAll, 200, 0).fan(), kMaxFan);
  EXPECT_TRUE(TrafficPlan::make(TrafficKind::kRing, 4, 0).flows_from(4, 0).empty());
  EXPECT_TRUE(TrafficPlan::make(TrafficKind::kRing, 4, 0).flows_from(0, 2).empty());
}

TEST(TrafficVerdict, NamesThePlantedSlowHostUnderEveryPattern) {
  for (TrafficKind kind : {TrafficKind::kIncast, TrafficKind::kFanOut, TrafficKind::kAllToAll,
                           TrafficKind::kBisection, TrafficKind::kRing})
    for (int slow_rank : {0, 2, 3}) {
      const auto plan = TrafficPlan::make(kind, 4, 0);
      const auto v = judge_traffic(measured(plan, slow_rank, 1e9, 0.2e9), 4, 0.8);
      EXPECT_EQ(v.slow_hosts, std::vector<int>{slow_rank}) << to_string(kind);
      EXPECT_EQ(v.exit_code, static_cast<int>(ExitCode::kOutliers)) << to_string(kind);
      ASSERT_EQ(v.hosts.size(), 4u);
      const auto clean = judge_traffic(measured(plan, -1, 1e9, 1e9), 4, 0.8);
      EXPECT_TRUE(clean.slow_hosts.empty()) << to_string(kind);
      EXPECT_EQ(clean.exit_code, 0);
    }
}

TEST(TrafficVerdict, AHostIsJudgedOnItsBestRound) {
  // rank 0 is slow in round 0 only, beside rank 1; in round 1 it runs at full rate
  const std::vector<FlowRow> rows = {
      {0, 0, 1, 1e8, 0, ""}, {0, 2, 3, 1e9, 0, ""}, {1, 0, 2, 1e9, 0, ""}, {1, 1, 3, 1e8, 0, ""}};
  const auto v = judge_traffic(rows, 4, 0.8);
  ASSERT_EQ(v.hosts.size(), 4u);
  EXPECT_EQ(v.hosts[0].best, 1e9);
  EXPECT_EQ(v.hosts[0].best_round, 1u);
  EXPECT_EQ(v.hosts[0].sent_at_best, 1e9);
  EXPECT_EQ(v.hosts[0].received_at_best, 0);
  EXPECT_EQ(v.hosts[0].worst, 1e8);
  EXPECT_EQ(v.slow_hosts, std::vector<int>{1});  // slow in both of its rounds
  EXPECT_DOUBLE_EQ(v.median, 1e9);
  EXPECT_DOUBLE_EQ(v.threshold, 0.8e9);
}

TEST(TrafficVerdict, AFailedFlowGivesItsExitCodeAndCounts) {
  const std::vector<FlowRow> rows = {{0, 0, 1, 0, 4, "connect: refused"}, {0, 1, 0, 1e9, 0, ""}};
  const auto v = judge_traffic(rows, 2, 0.8);
  EXPECT_EQ(v.failed_flows, 1u);
  EXPECT_EQ(v.exit_code, 4);
  EXPECT_EQ(v.hosts[0].failed_flows, 1u);
  EXPECT_EQ(v.hosts[1].failed_flows, 1u);
}

TEST(TrafficReport, SectionVerdictAndSummaryAgree) {
  const auto plan = TrafficPlan::make(TrafficKind::kRing, 4, 0);
  const auto rows = measured(plan, 2, 1e9, 0.2e9);
  const auto v = judge_traffic(rows, 4, 0.8);
  nlohmann::json hosts = nlohmann::json::array();
  for (int r = 0; r < 4; ++r)
    hosts.push_back({{"rank", r}, {"hostname", "h\x1b[2J" + std::to_string(r)}});
  const TrafficReport made{
      {{"ranks", 4}}, mesh_hosts(hosts), traffic_facts(plan, 2, 1, 1.5, 0.8, rows.size()), v, {}};
  const nlohmann::json report = traffic_report_json(made);
  EXPECT_EQ(report["traffic"]["pattern"], "ring");
  EXPECT_EQ(report["traffic"]["streams"], 2);
  EXPECT_EQ(report["traffic"]["flows"], 8);
  EXPECT_EQ(report["traffic"]["hosts"].size(), 4u);
  EXPECT_EQ(report["verdict"]["slow_hosts"], nlohmann::json::array({2}));
  EXPECT_EQ(report["verdict"]["exit_code"], 7);
  std::ostringstream out;
  print_traffic_report(made, out);
  EXPECT_NE(out.str().find("SLOW"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("1 slow hosts: 2 (exit 7)"), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find('\x1b'), std::string::npos) << "a host name printed raw";
}
