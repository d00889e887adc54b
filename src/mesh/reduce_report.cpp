#include "mesh/reduce_report.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <set>

#include "core/error.h"
#include "mesh/host_differences.h"
#include "mesh/local_report_ranks.h"
#include "mesh/matrix_sink.h"
#include "mesh/mesh_reduction.h"
#include "mesh/rank_rows.h"

namespace rdmabench {

namespace {

// The names of the groups whose every pair across is flagged (none without groups).
std::optional<std::vector<std::string>> flagged_groups(const ReportRanks& ranks, size_t b,
                                                       const std::string& counter, FlagRule rule,
                                                       const MeshGroups* groups) {
  if (groups == nullptr) return std::nullopt;
  std::vector<std::string> names;
  for (int g :
       flag_groups_over_ranks(ranks, b, counter, rule, groups->of_rank, groups->names.size()))
    names.push_back(groups->names.at(static_cast<size_t>(g)));
  return names;
}

FlaggedPairs flagged_pairs(const ReportRanks& ranks, size_t b, const std::string& counter,
                           FlagRule rule, const MeshGroups* groups) {
  const OutlierReport o = flag_over_ranks(ranks, b, counter, rule);
  return {o.slow_pairs,   o.flagged_pairs - o.slow_pairs.size(),
          o.slow_senders, o.slow_receivers,
          o.slow_hosts(), flagged_groups(ranks, b, counter, rule, groups)};
}

// The wire's verdict on a benchmark: pairs that resent more than `max_resends` per message,
// and hosts whose whole row or column did, even where their bandwidth is fine.
WireVerdict wire_verdict(const ReportRanks& ranks, size_t b, double max_resends,
                         const MeshGroups* groups) {
  return {max_resends, median_over_ranks(ranks, b, kResendsCounter, false),
          flagged_pairs(ranks, b, kResendsCounter, {max_resends, true}, groups)};
}

OutliersVerdict outliers_verdict(const ReportRanks& ranks, size_t b, const JudgedFigure& figure,
                                 double min_fraction, const MeshGroups* groups) {
  const OutlierRule rule{min_fraction, figure.higher_is_better};
  const double median = median_over_ranks(ranks, b, figure.counter, figure.higher_is_better);
  const double threshold = slow_threshold(median, rule);
  return {min_fraction, median, threshold,
          flagged_pairs(ranks, b, figure.counter, {threshold, !figure.higher_is_better}, groups)};
}

// The heatmaps (report_scope.h's heatmap_counters) of the matrices there are; the judged figure
// always. A map's verdict names the section whose flagged pairs and hosts it outlines.
std::vector<Heatmap> heatmaps_of(const JudgedFigure& figure,
                                 const std::vector<std::string>& matrices) {
  const auto has = [&](const std::string& counter) {
    return std::find(matrices.begin(), matrices.end(), counter) != matrices.end();
  };
  std::vector<Heatmap> heatmaps;
  for (const std::string& counter : heatmap_counters(figure.counter)) {
    if (counter == figure.counter)
      heatmaps.push_back({counter, figure.higher_is_better, "outliers"});
    else if (has(counter) && counter == kResendsCounter)
      heatmaps.push_back({counter, false, "wire"});
    else if (has(counter))
      heatmaps.push_back({counter, false, std::nullopt});
  }
  return heatmaps;
}

// One benchmark's errors and verdicts (its matrices come after: stream_matrices).
MeshBenchmark benchmark_report(const ReportRanks& ranks, size_t b, const BenchmarkName& name,
                               const std::vector<std::string>& matrices,
                               const BenchmarkFailures& failures, const MeshJudgement& judge,
                               const MeshGroups* groups) {
  const JudgedFigure figure = judged_figure(name.second);
  return {name.first,
          figure.counter,
          figure.higher_is_better,
          heatmaps_of(figure, matrices),
          failures.listed,
          failures.count - failures.listed.size(),
          wire_verdict(ranks, b, judge.max_resends, groups),
          outliers_verdict(ranks, b, figure, judge.min_fraction, groups),
          {}};
}

// What the benchmarks' verdicts add up to: the flagged hosts, groups and pairs.
void add_to_verdict(const MeshBenchmark& r, const MeshGroups* groups, MeshVerdict& v) {
  v.slow_hosts.insert(r.outliers.slow.hosts.begin(), r.outliers.slow.hosts.end());
  v.resending_hosts.insert(r.wire.resending.hosts.begin(), r.wire.resending.hosts.end());
  if (groups) {
    v.slow_groups->insert(r.outliers.slow.groups->begin(), r.outliers.slow.groups->end());
    v.resending_groups->insert(r.wire.resending.groups->begin(), r.wire.resending.groups->end());
  }
  v.slow_pairs += r.outliers.slow.count();
  v.resending_pairs += r.wire.resending.count();
}

}  // namespace

ReducedReport reduce_mesh_report(const ReportRanks& ranks,
                                 const std::vector<BenchmarkName>& benchmarks,
                                 const nlohmann::json& context, std::vector<MeshHost> hosts,
                                 const MeshJudgement& judge, const MeshGroups* groups) {
  check_min_fraction(judge.min_fraction);
  ReducedReport out;
  MeshVerdict& verdict = out.report.verdict;
  if (groups) verdict.slow_groups.emplace(), verdict.resending_groups.emplace();
  for (size_t b = 0; b < benchmarks.size(); ++b) {
    const BenchmarkFailures failures = failures_over_ranks(ranks, b);
    if (!failures.any_result) continue;
    out.benchmarks.push_back(b);
    out.matrix_counters.push_back(counters_over_ranks(ranks, b));
    MeshBenchmark r = benchmark_report(ranks, b, benchmarks[b], out.matrix_counters.back(),
                                       failures, judge, groups);
    add_to_verdict(r, groups, verdict);
    verdict.failed_pairs += failures.count;
    verdict.exit_code = std::max(verdict.exit_code, failures.worst_exit_code);
    if (ranks.rank() == 0) out.report.benchmarks.push_back(std::move(r));
  }
  if (ranks.rank() != 0) return out;
  if (verdict.exit_code == 0 && verdict.slow_pairs + verdict.resending_pairs > 0)
    verdict.exit_code = static_cast<int>(ExitCode::kOutliers);
  out.report.context = context;
  out.report.host_differences = differing_hosts(hosts);
  for (const HostDifference& d : out.report.host_differences)
    verdict.differing_hosts.insert(d.rank);
  out.report.hosts = std::move(hosts);
  return out;
}

namespace {

// Rank 0 holds a batch of matrices up to this size, so that a small mesh streams each
// benchmark's matrices (about 150 of them with every counter kept) in one pass rather than one
// pass each; a matrix larger than this streams alone, its rows going to the sink as they come.
constexpr size_t kMatrixBatchBytes = 64u << 20;

size_t matrices_per_stream(size_t ranks, size_t counters) {
  const size_t one = std::max<size_t>(ranks * ranks * sizeof(double), 1);
  return std::clamp<size_t>(kMatrixBatchBytes / one, 1, std::max<size_t>(counters, 1));
}

// A rank's rows of `counters` for benchmark `b`, one after another (NaN where it has none).
std::string rows_bytes(const RankRows& rows, size_t b, size_t ranks,
                       std::span<const std::string> counters) {
  std::vector<double> cells(counters.size() * ranks, NAN);
  for (size_t c = 0; c < counters.size() && b < rows.benchmarks.size(); ++c)
    if (const auto it = rows.benchmarks[b].counters.find(counters[c]);
        it != rows.benchmarks[b].counters.end())
      std::copy_n(it->second.begin(), std::min(ranks, it->second.size()),
                  cells.begin() + static_cast<std::ptrdiff_t>(c * ranks));
  return std::string(reinterpret_cast<const char*>(cells.data()), cells.size() * sizeof(double));
}

// One stream of `counters`' matrices of benchmark `b` into `sink` (rank 0's; null elsewhere): a
// single matrix row by row as it arrives, several held until every rank's rows are in.
void stream_batch(const ReportRanks& ranks, size_t b, std::span<const std::string> counters,
                  MatrixSink* sink) {
  const size_t n = ranks.size(), row_bytes = n * sizeof(double);
  std::vector<std::vector<double>> held(counters.size() > 1 && sink ? counters.size() : 0);
  for (auto& matrix : held) matrix.reserve(n * n);
  if (sink && held.empty()) sink->begin_matrix(counters.front());
  ranks.stream([&](const RankRows& rows) { return rows_bytes(rows, b, n, counters); },
               [&](int rank, std::string_view bytes) {
                 if (bytes.size() != counters.size() * row_bytes)
                   throw Error(ExitCode::kConnection, "mesh: rank " + std::to_string(rank) +
                                                          " sent rows of " +
                                                          std::to_string(bytes.size()) + " bytes");
                 std::vector<double> cells(bytes.size() / sizeof(double));
                 std::memcpy(cells.data(), bytes.data(), bytes.size());
                 if (sink && held.empty()) sink->row(cells);
                 for (size_t c = 0; c < held.size(); ++c)
                   held[c].insert(held[c].end(), cells.begin() + static_cast<std::ptrdiff_t>(c * n),
                                  cells.begin() + static_cast<std::ptrdiff_t>((c + 1) * n));
               },
               counters.size() * row_bytes);
  if (sink && held.empty()) sink->end_matrix();
  for (size_t c = 0; c < held.size(); ++c) {
    sink->begin_matrix(counters[c]);
    for (size_t r = 0; r < n; ++r) sink->row(std::span<const double>(held[c]).subspan(r * n, n));
    sink->end_matrix();
  }
}

}  // namespace

void stream_matrices(const ReportRanks& ranks, const ReducedReport& reduced, MatrixSink* sink) {
  for (size_t i = 0; i < reduced.benchmarks.size(); ++i) {
    const std::vector<std::string>& counters = reduced.matrix_counters[i];
    const size_t batch = matrices_per_stream(ranks.size(), counters.size());
    if (sink) sink->begin_benchmark(i);
    for (size_t first = 0; first < counters.size(); first += batch)
      stream_batch(ranks, reduced.benchmarks[i],
                   std::span<const std::string>(counters).subspan(
                       first, std::min(batch, counters.size() - first)),
                   sink);
    if (sink) sink->end_benchmark();
  }
}

MeshReport mesh_report(const nlohmann::json& context, const nlohmann::json& hosts,
                       const std::vector<PairResult>& results, const MeshJudgement& judge,
                       MatrixScope scope) {
  const size_t n = hosts.size();
  const std::vector<BenchmarkName> benchmarks = benchmarks_of(results);
  std::vector<std::vector<PairResult>> by_client(n);
  for (const PairResult& r : results) {
    if (r.pair.client < 0 || static_cast<size_t>(r.pair.client) >= n)
      throw Error(ExitCode::kConnection, "mesh: a result of client rank " +
                                             std::to_string(r.pair.client) + ", beyond " +
                                             std::to_string(n) + " hosts");
    by_client[static_cast<size_t>(r.pair.client)].push_back(r);
  }
  std::vector<RankRows> rows;
  for (size_t c = 0; c < n; ++c)
    rows.push_back(rank_rows(static_cast<int>(c), n, benchmarks, by_client[c], scope));
  const LocalReportRanks ranks(std::move(rows));
  ReducedReport reduced = reduce_mesh_report(ranks, benchmarks, context, mesh_hosts(hosts), judge);
  MatricesInReport sink(reduced.report);
  stream_matrices(ranks, reduced, &sink);
  return std::move(reduced.report);
}

}  // namespace rdmabench
