// The search's pair cover (search/pair_cover.h): rows that hold every pair of values of two
// unordered options, moved where the target refuses a row, a pair the target takes no point of
// counted apart, and once for each value a rule asks for.
#include <gtest/gtest.h>

#include <algorithm>

#include "search/expectation_rules.h"
#include "search/pair_cover.h"
#include "simulated_target.h"

namespace rdmabench {
namespace {

using testing::simulated_space;

const auto kAll = [](const Point&) { return true; };

bool holds(const std::vector<Point>& rows, const std::string& a, const std::string& x,
           const std::string& b, const std::string& y) {
  return std::any_of(rows.begin(), rows.end(),
                     [&](const Point& p) { return p.at(a) == x && p.at(b) == y; });
}

TEST(PairCover, HoldsEveryPairOfTheSimulatedSpaceInFewRows) {
  // pattern 3, mode 2, cq 2, bidir 2: 30 pairs; no fewer than 6 rows can hold them (the
  // 3 x 2 of pattern and any other), one at a time would take 30.
  const SearchSpace space = simulated_space();
  const PairCover cover = pair_cover(space, kAll);
  EXPECT_EQ(cover.pairs, 30u);
  EXPECT_EQ(pair_count(space), 30u);
  EXPECT_EQ(cover.refused, 0u);
  EXPECT_EQ(pairs_held(space, cover.rows), 30u);
  EXPECT_LE(cover.rows.size(), 8u);
  // The ordered options stay at the base's values.
  for (const Point& row : cover.rows) {
    EXPECT_EQ(row.at("sizes"), "64K");
    EXPECT_EQ(row.at("qps"), "1");
  }
}

TEST(PairCover, MovesARefusedRowAlongAnOrderedOptionAndCountsAPairNoPointHolds) {
  const SearchSpace space = simulated_space();
  // Reads at 8 bytes only, and never with --bidir.
  const auto accepts = [](const Point& p) {
    return p.at("pattern") != "read" || (p.at("sizes") == "8" && p.at("bidir") == "off");
  };
  const PairCover cover = pair_cover(space, accepts);
  EXPECT_EQ(cover.refused, 1u);  // read with --bidir
  EXPECT_EQ(pairs_held(space, cover.rows), 29u);
  EXPECT_FALSE(holds(cover.rows, "pattern", "read", "bidir", "on"));
  for (const Point& row : cover.rows) EXPECT_TRUE(accepts(row)) << point_key(row);
  EXPECT_TRUE(holds(cover.rows, "pattern", "read", "mode", "lat"));
}

TEST(PairCover, CoversThePairsOnceForEachValueARuleAsksFor) {
  // Bandwidth rules judge only mode=bw, latency rules mode=lat: each sees every pair of the
  // other options among its own rows.
  const SearchSpace space = simulated_space();
  const std::vector<Point> rows = cover_rows(space, registered_rules(), kAll);
  for (const std::string mode : {"bw", "lat"}) {
    std::vector<Point> in_mode;
    std::copy_if(rows.begin(), rows.end(), std::back_inserter(in_mode),
                 [&](const Point& p) { return p.at("mode") == mode; });
    for (const auto& [a, b] : {std::pair{"pattern", "cq"}, {"pattern", "bidir"}, {"cq", "bidir"}})
      for (const std::string& x : space.find(a)->values)
        for (const std::string& y : space.find(b)->values)
          EXPECT_TRUE(holds(in_mode, a, x, b, y))
              << mode << " " << a << "=" << x << " " << b << "=" << y;
  }
}

TEST(PairCover, ASpaceWithOneUnorderedOptionHasNoPairs) {
  const SearchSpace space = restrict_space(simulated_space(), "mode=bw cq=busy bidir=off");
  const PairCover cover = pair_cover(space, kAll);
  EXPECT_EQ(cover.pairs, 0u);
  EXPECT_TRUE(cover.rows.empty());
}

}  // namespace
}  // namespace rdmabench
