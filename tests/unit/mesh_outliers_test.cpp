// The outlier verdict (outliers.h) as the ranks reduce it (mesh_reduction.h), each rank
// holding its row of the matrix.
#include "mesh/outliers.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"
#include "mesh/local_report_ranks.h"
#include "mesh/mesh_reduction.h"

using namespace rdmabench;

namespace {
// Each row of `m` the rows of one rank, as bytes_per_second of benchmark 0.
LocalReportRanks ranks_of(const MeshMatrix& m) {
  std::vector<RankRows> rows;
  for (size_t c = 0; c < m.size(); ++c) {
    std::vector<double> row(m.size(), NAN);
    for (size_t s = 0; s < m.size(); ++s)
      if (m[c][s]) row[s] = *m[c][s];
    rows.push_back({static_cast<int>(c), m.size(), {{"b", "bw", {{"bytes_per_second", row}}, {}}}});
  }
  return LocalReportRanks(std::move(rows));
}

OutlierReport find_outliers(const MeshMatrix& m, const OutlierRule& rule) {
  check_min_fraction(rule.min_fraction);
  const auto ranks = ranks_of(m);
  const double median = median_over_ranks(ranks, 0, "bytes_per_second", rule.higher_is_better);
  const double threshold = slow_threshold(median, rule);
  OutlierReport r =
      flag_over_ranks(ranks, 0, "bytes_per_second", {threshold, !rule.higher_is_better});
  r.median = median;
  return r;
}

// An N x N matrix with `value` off the diagonal.
MeshMatrix uniform(int n, double value) {
  MeshMatrix m(n, std::vector<std::optional<double>>(n));
  for (int c = 0; c < n; ++c)
    for (int s = 0; s < n; ++s)
      if (c != s) m[c][s] = value;
  return m;
}
}  // namespace

TEST(MeshOutliers, AnEvenMeshHasNone) {
  MeshMatrix m = uniform(4, 100);
  m[0][1] = 85;  // within 0.8 of the median
  const auto r = find_outliers(m, {0.8, true});
  EXPECT_EQ(r.median, 100);
  EXPECT_EQ(r.threshold, 80);
  EXPECT_FALSE(r.any());
  EXPECT_TRUE(r.slow_hosts().empty());
}

TEST(MeshOutliers, OneSlowHostIsNamedByItsRowAndColumn) {
  MeshMatrix m = uniform(4, 100);
  for (int o = 0; o < 4; ++o)
    if (o != 2) m[2][o] = m[o][2] = 10;
  const auto r = find_outliers(m, {0.8, true});
  EXPECT_EQ(r.slow_pairs.size(), 6u);
  EXPECT_EQ(r.slow_senders, std::vector<int>{2});
  EXPECT_EQ(r.slow_receivers, std::vector<int>{2});
  EXPECT_EQ(r.slow_hosts(), std::vector<int>{2});
}

TEST(MeshOutliers, AMildlySlowHostAmongFourIsFoundThoughItTouchesHalfThePairs) {
  MeshMatrix m = uniform(4, 100);
  for (int o = 0; o < 4; ++o)
    if (o != 3) m[3][o] = m[o][3] = 70;
  const auto r = find_outliers(m, {0.8, true});
  EXPECT_EQ(r.median, 100);
  EXPECT_EQ(r.slow_hosts(), std::vector<int>{3});
  MeshMatrix lat = uniform(4, 10);
  for (int o = 0; o < 4; ++o)
    if (o != 0) lat[0][o] = lat[o][0] = 14;
  EXPECT_EQ(find_outliers(lat, {0.8, false}).slow_hosts(), std::vector<int>{0});
}

TEST(MeshOutliers, OneSlowPairNamesNoHost) {
  MeshMatrix m = uniform(4, 100);
  m[1][3] = 50;
  const auto r = find_outliers(m, {0.8, true});
  EXPECT_EQ(r.slow_pairs, (std::vector<MeshPair>{{1, 3}}));
  EXPECT_TRUE(r.slow_hosts().empty());
}

TEST(MeshOutliers, LatencyIsSlowAboveTheMedianOverTheFraction) {
  MeshMatrix m = uniform(3, 10);
  m[0][1] = 12.4;  // below 10 / 0.8
  m[1][0] = 13;    // above it
  const auto r = find_outliers(m, {0.8, false});
  EXPECT_EQ(r.threshold, 12.5);
  EXPECT_EQ(r.slow_pairs, (std::vector<MeshPair>{{1, 0}}));
}

TEST(MeshOutliers, UnmeasuredPairsAreLeftOutAndTheMedianOfAnEvenCountIsTheBetterMiddle) {
  MeshMatrix m(3, std::vector<std::optional<double>>(3));
  m[0][1] = 10;
  m[1][2] = 30;
  m[2][0] = 20;
  m[2][1] = 40;
  const auto r = find_outliers(m, {0.5, true});
  EXPECT_EQ(r.median, 30);
  EXPECT_EQ(r.slow_pairs, (std::vector<MeshPair>{{0, 1}}));
  EXPECT_EQ(find_outliers(m, {0.5, false}).median, 20);  // latency: the lower middle
  EXPECT_EQ(r.slow_senders, std::vector<int>{0});        // its only pair
  EXPECT_TRUE(r.slow_receivers.empty());                 // 1 also serves 2 at 40
}

TEST(MeshOutliers, FractionOutsideItsRangeIsAUsageError) {
  for (double f : {0.0, -0.5, 1.5}) EXPECT_THROW(find_outliers(uniform(2, 1), {f, true}), Error);
}
