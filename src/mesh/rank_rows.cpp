#include "mesh/rank_rows.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace rdmabench {

std::vector<BenchmarkName> benchmarks_of(const std::vector<PairResult>& results) {
  std::vector<BenchmarkName> names;
  for (const PairResult& r : results)
    if (std::none_of(names.begin(), names.end(),
                     [&](const BenchmarkName& n) { return n.first == r.benchmark; }))
      names.emplace_back(r.benchmark, r.mode);
  return names;
}

namespace {

void check_pair(const PairResult& r, int rank, size_t ranks) {
  if (r.pair.client != rank || r.pair.server < 0 || static_cast<size_t>(r.pair.server) >= ranks)
    throw Error(ExitCode::kConnection,
                "mesh: rank " + std::to_string(rank) + " holds a result of pair " +
                    std::to_string(r.pair.client) + " -> " + std::to_string(r.pair.server) +
                    ", not one of its own towards ranks 0.." + std::to_string(ranks - 1));
}

BenchmarkRow& row_of(RankRows& rows, const std::string& name) {
  for (BenchmarkRow& b : rows.benchmarks)
    if (b.name == name) return b;
  throw Error(ExitCode::kConnection,
              "mesh: a result of benchmark '" + name + "', which this mesh does not run");
}

}  // namespace

RankRows rank_rows(int rank, size_t ranks, const std::vector<BenchmarkName>& benchmarks,
                   const std::vector<PairResult>& results, MatrixScope scope) {
  RankRows rows{rank, ranks, {}};
  for (const auto& [name, mode] : benchmarks) rows.benchmarks.push_back({name, mode, {}, {}});
  for (const PairResult& r : results) {
    check_pair(r, rank, ranks);
    BenchmarkRow& b = row_of(rows, r.benchmark);
    if (!r.error.empty()) {
      b.errors.push_back(r);
      continue;
    }
    for (const auto& [counter, value] :
         report_counters(r.counters, judged_figure(b.mode).counter, scope)) {
      auto& row = b.counters[counter];
      if (row.empty()) row.assign(ranks, NAN);
      row[static_cast<size_t>(r.pair.server)] = value;
    }
  }
  return rows;
}

}  // namespace rdmabench
