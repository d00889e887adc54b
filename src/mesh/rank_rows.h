// One rank's share of a mesh report: the row of each benchmark's matrices where it was the
// client (a value per server rank), and its failed pairs. A rank keeps these, O(ranks), and
// nothing of the other ranks' pairs: the report is reduced from every rank's rows
// (mesh_reduction.h), never gathered whole.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "mesh/pair_result.h"
#include "mesh/report_scope.h"

namespace rdmabench {

struct BenchmarkRow {
  std::string name;  // TestSpec::name()
  std::string mode;  // "bw" or "lat": what judged_figure() reads
  // Counter -> its value towards each server rank; NaN where this rank measured no such pair.
  std::map<std::string, std::vector<double>> counters;
  std::vector<PairResult> errors;  // the pairs that failed, as measured
};

struct RankRows {
  int rank = 0;
  size_t ranks = 0;
  std::vector<BenchmarkRow> benchmarks;  // the same names in the same order on every rank
};

// A benchmark as every rank lists it: its name and mode.
using BenchmarkName = std::pair<std::string, std::string>;

// The benchmarks of `results` in the order each first appears.
std::vector<BenchmarkName> benchmarks_of(const std::vector<PairResult>& results);

// `rank`'s rows from the results it measured as a client (one per pair: best_of_repetitions
// first), each pair's counters as report_counters keeps them. Throws Error(kConnection) for a
// result of another client or a server outside 0..ranks-1.
RankRows rank_rows(int rank, size_t ranks, const std::vector<BenchmarkName>& benchmarks,
                   const std::vector<PairResult>& results, MatrixScope scope);

}  // namespace rdmabench
