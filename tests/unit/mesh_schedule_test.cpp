#include "mesh/schedule.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "core/error.h"

using namespace rdmabench;

namespace {
std::string usage_error(const std::string& text, int hosts) {
  std::istringstream in(text);
  try {
    parse_pairs(in, hosts, "pairs.txt");
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage);
    return e.what();
  }
  return "";
}

// Every rank at most once a client and once a server in every round.
void expect_one_role_each(const std::vector<MeshRound>& rounds) {
  for (const MeshRound& round : rounds) {
    std::set<int> clients, servers;
    for (const MeshPair& p : round) {
      EXPECT_TRUE(clients.insert(p.client).second);
      EXPECT_TRUE(servers.insert(p.server).second);
    }
  }
}
std::vector<MeshRound> all_rounds(const MeshSchedule& schedule) {
  std::vector<MeshRound> rounds;
  for (size_t k = 0; k < schedule.rounds(); ++k) {
    rounds.push_back(schedule.round(k));
    EXPECT_EQ(rounds.back().size(), schedule.pairs_in(k));
  }
  return rounds;
}
std::vector<MeshRound> shift_schedule(int n) {
  return all_rounds(MeshSchedule::shift(n));
}
std::vector<MeshRound> isolated_schedule(int n) {
  return all_rounds(MeshSchedule::isolated(n));
}
}  // namespace

TEST(MeshSchedule, ShiftCoversEveryOrderedPairOnceInNMinusOneRounds) {
  const auto rounds = shift_schedule(4);
  ASSERT_EQ(rounds.size(), 3u);
  std::set<std::pair<int, int>> seen;
  for (size_t d = 0; d < rounds.size(); ++d) {
    ASSERT_EQ(rounds[d].size(), 4u);
    for (const MeshPair& p : rounds[d]) {
      EXPECT_EQ(p.server, (p.client + static_cast<int>(d) + 1) % 4);
      EXPECT_TRUE(seen.emplace(p.client, p.server).second);
    }
  }
  EXPECT_EQ(seen.size(), 12u);
  expect_one_role_each(rounds);
  EXPECT_TRUE(shift_schedule(1).empty());
}

TEST(MeshSchedule, IsolatedRunsOnePairARound) {
  const auto rounds = isolated_schedule(3);
  ASSERT_EQ(rounds.size(), 6u);
  for (const MeshRound& round : rounds) EXPECT_EQ(round.size(), 1u);
  EXPECT_EQ(rounds[0][0], (MeshPair{0, 1}));
  EXPECT_EQ(rounds[5][0], (MeshPair{2, 1}));
  EXPECT_EQ(MeshSchedule::isolated(3).server_of(1, 0), std::nullopt);
}

TEST(MeshSchedule, AShiftOfSixteenThousandRanksNamesAnyRanksPairWithoutListingThem) {
  const MeshSchedule s = MeshSchedule::shift(16384);
  EXPECT_EQ(s.rounds(), 16383u);
  EXPECT_EQ(s.server_of(16000, 500), (16000 + 501) % 16384);
  const MeshSchedule pairs = MeshSchedule::of_rounds({{{0, 1}, {2, 3}}, {{1, 0}}});
  EXPECT_EQ(pairs.server_of(2, 0), 3);
  EXPECT_EQ(pairs.server_of(2, 1), std::nullopt);
  EXPECT_EQ(pairs.pairs_in(1), 1u);
}

TEST(MeshSchedule, PairsFileParsesWithCommentsAndBlankLines) {
  std::istringstream in("# from to\n0 1\n\n  2 0   # back\n1\t2\n");
  EXPECT_EQ(parse_pairs(in, 3, "f"), (std::vector<MeshPair>{{0, 1}, {2, 0}, {1, 2}}));
}

TEST(MeshSchedule, BadPairsNameTheLineAndTheProblem) {
  EXPECT_EQ(usage_error("0 1\n0 x\n", 2), "pairs.txt:2: expected two ranks, CLIENT SERVER");
  EXPECT_EQ(usage_error("0 1 2\n", 3), "pairs.txt:1: expected two ranks, CLIENT SERVER");
  EXPECT_EQ(usage_error("0 4\n", 4), "pairs.txt:1: rank 4 is not between 0 and 3 (4 ranks)");
  EXPECT_EQ(usage_error("-1 0\n", 4), "pairs.txt:1: rank -1 is not between 0 and 3 (4 ranks)");
  EXPECT_EQ(usage_error("1 1\n", 2), "pairs.txt:1: a rank cannot measure against itself");
  EXPECT_EQ(usage_error("0 1\n1 0\n0 1\n", 2), "pairs.txt:3: the pair is given twice");
  EXPECT_EQ(usage_error("# nothing\n", 2), "pairs.txt: no pairs");
}

TEST(MeshSchedule, PairsPackIntoRoundsWhereEachRankServesOneClient) {
  // 0->1 and 2->1 share a server: they cannot run together.
  const auto rounds = rounds_from_pairs({{0, 1}, {2, 1}, {1, 0}, {3, 2}, {0, 3}});
  expect_one_role_each(rounds);
  ASSERT_EQ(rounds.size(), 2u);
  EXPECT_EQ(rounds[0], (MeshRound{{0, 1}, {1, 0}, {3, 2}}));
  EXPECT_EQ(rounds[1], (MeshRound{{2, 1}, {0, 3}}));
}

TEST(MeshSchedule, ScheduleNames) {
  EXPECT_EQ(parse_schedule_kind("shift"), ScheduleKind::kShift);
  EXPECT_EQ(parse_schedule_kind("isolated"), ScheduleKind::kIsolated);
  EXPECT_EQ(parse_schedule_kind("ring"), std::nullopt);
}

TEST(MeshSchedule, SampledCoversEveryPairWithinAGroupAndEveryGroupPairInItsRounds) {
  // Racks of 3, 2, 4 and 1 ranks, interleaved.
  const std::vector<int> group = {0, 1, 2, 0, 1, 2, 2, 0, 2, 3};
  for (size_t partners : {1u, 2u, 5u}) {
    const size_t to_cover = (4 - 1 + partners - 1) / partners;
    const MeshSchedule s = MeshSchedule::sampled(group, partners, to_cover);
    const auto rounds = all_rounds(s);
    expect_one_role_each(rounds);
    std::set<std::pair<int, int>> pairs, group_pairs;
    for (const MeshRound& round : rounds)
      for (const MeshPair& p : round) {
        EXPECT_NE(p.client, p.server);
        // Measured twice only once the rounds pass the groups again (5 partners, 3 offsets).
        EXPECT_TRUE(pairs.emplace(p.client, p.server).second || partners * to_cover > 3);
        if (group[p.client] != group[p.server])
          group_pairs.emplace(group[p.client], group[p.server]);
      }
    for (int c = 0; c < 10; ++c)
      for (int o = 0; o < 10; ++o)
        if (c != o && group[c] == group[o]) {
          EXPECT_TRUE(pairs.count({c, o})) << c << " " << o;
        }
    EXPECT_EQ(group_pairs.size(), 12u) << partners;
    const auto coverage = s.coverage();
    EXPECT_EQ(coverage["group_pairs"], 12);
    EXPECT_EQ(coverage["group_pairs_covered"], 12);
    EXPECT_EQ(coverage["pairs_within_groups"], 6 + 2 + 12);
    EXPECT_EQ(coverage["sample_rounds_to_cover_every_group_pair"], to_cover);
  }
  const MeshSchedule one_round = MeshSchedule::sampled(group, 1, 1);
  EXPECT_EQ(one_round.coverage()["group_pairs_covered"], 4);  // every group towards its next
  EXPECT_EQ(one_round.rounds(), 3u + 1u);
  EXPECT_THROW(MeshSchedule::sampled(group, 0, 1), Error);
}

TEST(MeshSchedule, SampledRoundsMeetOtherRanksOfTheSameGroupsEachTime) {
  std::vector<int> group(64);
  for (int r = 0; r < 64; ++r) group[r] = r / 8;               // 8 racks of 8
  const MeshSchedule s = MeshSchedule::sampled(group, 1, 14);  // every group pair twice
  std::set<std::pair<int, int>> pairs;
  for (size_t k = 7; k < s.rounds(); ++k)
    for (const MeshPair& p : s.round(k)) pairs.emplace(p.client, p.server);
  EXPECT_EQ(pairs.size(), 64u * 14u) << "no pair across groups measured twice";
}
