// The mesh verdict reduced over ranks (mesh_reduction.h) against a plain reading of the whole
// matrix (sort every value, scan every line), on random meshes with gaps, ties and negative
// values; the caps on what a report lists; and what rank 0 does with a rank's bytes that are
// not what the reduction sends.
#include "mesh/mesh_reduction.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "../fuzz/forging_report_ranks.h"
#include "core/error.h"
#include "mesh/local_report_ranks.h"

using namespace rdmabench;

namespace {

using Matrix = std::vector<std::vector<double>>;  // NaN: no pair

LocalReportRanks ranks_of(const Matrix& m) {
  std::vector<RankRows> rows;
  for (size_t c = 0; c < m.size(); ++c)
    rows.push_back({static_cast<int>(c), m.size(), {{"b", "bw", {{"x", m[c]}}, {}}}});
  return LocalReportRanks(std::move(rows));
}

double plain_median(const Matrix& m, bool higher_is_better) {
  std::vector<double> values;
  for (const auto& row : m)
    for (double v : row)
      if (!std::isnan(v)) values.push_back(v);
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t mid = values.size() / 2;
  return values.size() % 2 == 1 || higher_is_better ? values[mid] : values[mid - 1];
}

struct Plain {
  std::vector<MeshPair> pairs;
  std::vector<int> senders, receivers;
};

Plain plain_flags(const Matrix& m, FlagRule rule) {
  Plain out;
  const auto flagged = [&](double v) {
    return rule.above ? v > rule.threshold : v < rule.threshold;
  };
  const size_t n = m.size();
  for (size_t h = 0; h < n; ++h) {
    size_t row_measured = 0, row_flagged = 0, col_measured = 0, col_flagged = 0;
    for (size_t o = 0; o < n; ++o) {
      if (!std::isnan(m[h][o])) ++row_measured, row_flagged += flagged(m[h][o]);
      if (!std::isnan(m[o][h])) ++col_measured, col_flagged += flagged(m[o][h]);
      if (!std::isnan(m[h][o]) && flagged(m[h][o]))
        out.pairs.push_back({static_cast<int>(h), static_cast<int>(o)});
    }
    if (row_measured > 0 && row_flagged == row_measured) out.senders.push_back(static_cast<int>(h));
    if (col_measured > 0 && col_flagged == col_measured)
      out.receivers.push_back(static_cast<int>(h));
  }
  return out;
}

Matrix random_matrix(std::mt19937& rng, size_t n) {
  std::uniform_int_distribution<int> kind(0, 9), small(-3, 3);
  std::uniform_real_distribution<double> wide(-1e12, 1e12);
  Matrix m(n, std::vector<double>(n, NAN));
  for (size_t c = 0; c < n; ++c)
    for (size_t s = 0; s < n; ++s) {
      const int k = kind(rng);
      if (c == s || k == 0) continue;  // the diagonal, and gaps
      m[c][s] = k < 5   ? small(rng)
                : k < 8 ? wide(rng)  // ties, and values of every size
                        : std::ldexp(1.0, small(rng) * 300);
    }
  return m;
}

}  // namespace

TEST(MeshReduction, MedianAndFlagsAgreeWithAPlainReadingOfRandomMeshes) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const size_t n = 1 + static_cast<size_t>(trial % 23);
    const Matrix m = random_matrix(rng, n);
    const auto ranks = ranks_of(m);
    for (bool higher : {true, false}) {
      const double median = median_over_ranks(ranks, 0, "x", higher);
      ASSERT_EQ(median, plain_median(m, higher)) << "trial " << trial;
      for (bool above : {true, false}) {
        const OutlierReport r = flag_over_ranks(ranks, 0, "x", {median, above});
        const Plain p = plain_flags(m, {median, above});
        ASSERT_EQ(r.slow_pairs, p.pairs) << "trial " << trial;
        ASSERT_EQ(r.flagged_pairs, p.pairs.size());
        ASSERT_EQ(r.slow_senders, p.senders);
        ASSERT_EQ(r.slow_receivers, p.receivers);
      }
    }
  }
}

TEST(MeshReduction, AnEmptyMeshOrAMissingCounterHasMedianZeroAndNoFlags) {
  const auto ranks = ranks_of(Matrix(3, std::vector<double>(3, NAN)));
  EXPECT_EQ(median_over_ranks(ranks, 0, "x", true), 0);
  EXPECT_EQ(median_over_ranks(ranks, 0, "other", true), 0);
  EXPECT_EQ(median_over_ranks(ranks, 5, "x", true), 0);
  const OutlierReport r = flag_over_ranks(ranks, 0, "x", {0, false});
  EXPECT_EQ(r.flagged_pairs, 0u);
  EXPECT_TRUE(r.slow_senders.empty() && r.slow_receivers.empty());
}

TEST(MeshReduction, ListsTheFirstPairsOnlyButCountsThemAll) {
  const size_t n = 400;  // 159,600 pairs, every one flagged
  Matrix m(n, std::vector<double>(n, 1.0));
  for (size_t h = 0; h < n; ++h) m[h][h] = NAN;
  const OutlierReport r = flag_over_ranks(ranks_of(m), 0, "x", {2.0, false});
  EXPECT_EQ(r.flagged_pairs, n * (n - 1));
  ASSERT_EQ(r.slow_pairs.size(), kListedPairs);
  EXPECT_EQ(r.slow_pairs.front(), (MeshPair{0, 1}));
  EXPECT_EQ(r.slow_senders.size(), n);
}

TEST(MeshReduction, FailuresAreCountedByExitCodeAndListedUpToTheCap) {
  std::vector<RankRows> rows;
  for (int c = 0; c < 3; ++c) {
    BenchmarkRow b{"b", "bw", {}, {}};
    for (int k = 0; k < 600; ++k)
      b.errors.push_back({"b", {c, (c + 1) % 3}, {}, std::string(5000, 'e'), c == 2 ? 9 : 4, "bw"});
    rows.push_back({c, 3, {b, {"quiet", "bw", {}, {}}}});
  }
  const LocalReportRanks ranks(std::move(rows));
  const BenchmarkFailures f = failures_over_ranks(ranks, 0);
  EXPECT_TRUE(f.any_result);
  EXPECT_EQ(f.count, 1800u);
  EXPECT_EQ(f.worst_exit_code, 9);
  ASSERT_EQ(f.listed.size(), kListedErrors);
  EXPECT_LT(f.listed[0].message.size(), 5000u);  // each message cut
  EXPECT_FALSE(failures_over_ranks(ranks, 1).any_result);
}

namespace {

ForgingReportRanks forging(std::string bytes) {
  return ForgingReportRanks(
      {0, 2, {{"b", "bw", {{"x", {NAN, 1.0}}}, {{"b", {0, 1}, {}, "e", 3, "bw"}}}}},
      std::move(bytes));
}

}  // namespace

TEST(MeshReduction, ARanksBytesThatAreNotWhatItWasAskedForAreAConnectionError) {
  const std::string beyond("\x07\x00\x00\x00", 4);  // a flagged pair towards rank 7 of 2
  for (const std::string& bytes : {beyond, std::string("\x01\x00", 2)}) {
    try {
      flag_over_ranks(forging(bytes), 0, "x", {2.0, false});
      ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), ExitCode::kConnection);
      EXPECT_NE(std::string(e.what()).find("rank 1"), std::string::npos) << e.what();
    }
  }
  for (const std::string& bytes :
       {std::string("[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]"),
        std::string("{\"client\":"), std::string(2u << 20, '['), std::string("[1]"),
        std::string(R"([{"client": 1}])"),
        std::string(R"([{"client": 1, "server": "0", "message": "m",
                                                    "exit_code": 3}])"),
        // ranks outside the mesh of 2, and an exit code beyond a byte
        std::string(R"([{"client": 7, "server": 0, "message": "m", "exit_code": 3}])"),
        std::string(R"([{"client": 1, "server": -1, "message": "m", "exit_code": 3}])"),
        std::string(R"([{"client": 1, "server": 0, "message": "m", "exit_code": 4096}])"),
        std::string(
            R"([{"client": 1, "server": 18446744073709551615, "message": "m", "exit_code": 3}])")})
    EXPECT_THROW(failures_over_ranks(forging(bytes), 0), Error) << bytes;
  std::string names;
  for (int i = 0; i < 1001; ++i) names += "c" + std::to_string(i) + "\n";
  EXPECT_THROW(counters_over_ranks(forging(names), 0), Error) << "a thousand and one";
}

TEST(MeshReduction, ARankWithAThousandLongFailuresSendsThemWithinTheMessageBound) {
  // Messages a rank may honestly hold: cut at 1000 bytes each, but JSON doubles every quote.
  std::vector<RankRows> rows;
  for (int c = 0; c < 2; ++c) {
    BenchmarkRow b{"b", "bw", {}, {}};
    for (int k = 0; k < 1000; ++k)
      b.errors.push_back({"b", {c, 1 - c}, {}, std::string(3000, '"'), 4, "bw"});
    rows.push_back({c, 2, {b}});
  }
  const BenchmarkFailures f = failures_over_ranks(LocalReportRanks(std::move(rows)), 0);
  EXPECT_EQ(f.count, 2000u);
  EXPECT_GT(f.listed.size(), 0u);
  EXPECT_LE(f.listed.size(), kListedErrors);
}
