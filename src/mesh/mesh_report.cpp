#include "mesh/mesh_report.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

#include "core/error.h"
#include "mesh/host_differences.h"
#include "mesh/local_report_ranks.h"
#include "mesh/matrix_sink.h"
#include "mesh/mesh_reduction.h"
#include "mesh/rank_rows.h"

namespace rdmabench {

namespace {

nlohmann::json pairs_json(const std::vector<MeshPair>& pairs) {
  nlohmann::json out = nlohmann::json::array();
  for (const MeshPair& p : pairs) out.push_back({p.client, p.server});
  return out;
}

// The names of the groups whose every pair across is flagged (none without groups).
nlohmann::json flagged_groups(const ReportRanks& ranks, size_t b, const std::string& counter,
                              FlagRule rule, const MeshGroups* groups) {
  nlohmann::json names = nlohmann::json::array();
  if (groups == nullptr) return names;
  for (int g :
       flag_groups_over_ranks(ranks, b, counter, rule, groups->of_rank, groups->names.size()))
    names.push_back(groups->names.at(static_cast<size_t>(g)));
  return names;
}

// The wire's verdict on a benchmark: pairs that resent more than `max_resends` per message,
// and hosts whose whole row or column did, even where their bandwidth is fine.
nlohmann::json wire_verdict(const ReportRanks& ranks, size_t b, double max_resends,
                            const MeshGroups* groups) {
  const FlagRule rule{max_resends, true};
  OutlierReport o = flag_over_ranks(ranks, b, kResendsCounter, rule);
  o.median = median_over_ranks(ranks, b, kResendsCounter, false);
  nlohmann::json j = {
      {"max_resends_per_msg", max_resends},          {"median", o.median},
      {"resending_pairs", pairs_json(o.slow_pairs)}, {"resending_senders", o.slow_senders},
      {"resending_receivers", o.slow_receivers},     {"resending_hosts", o.slow_hosts()}};
  if (o.flagged_pairs > o.slow_pairs.size())
    j["resending_pairs_not_listed"] = o.flagged_pairs - o.slow_pairs.size();
  if (groups) j["resending_groups"] = flagged_groups(ranks, b, kResendsCounter, rule, groups);
  return j;
}

nlohmann::json outliers_verdict(const ReportRanks& ranks, size_t b, const JudgedFigure& figure,
                                double min_fraction, const MeshGroups* groups) {
  const OutlierRule rule{min_fraction, figure.higher_is_better};
  const double median = median_over_ranks(ranks, b, figure.counter, figure.higher_is_better);
  const double threshold = slow_threshold(median, rule);
  const FlagRule slow{threshold, !figure.higher_is_better};
  const OutlierReport o = flag_over_ranks(ranks, b, figure.counter, slow);
  nlohmann::json j = {{"min_fraction", min_fraction},   {"median", median},
                      {"threshold", threshold},         {"slow_pairs", pairs_json(o.slow_pairs)},
                      {"slow_senders", o.slow_senders}, {"slow_receivers", o.slow_receivers},
                      {"slow_hosts", o.slow_hosts()}};
  if (o.flagged_pairs > o.slow_pairs.size())
    j["slow_pairs_not_listed"] = o.flagged_pairs - o.slow_pairs.size();
  if (groups) j["slow_groups"] = flagged_groups(ranks, b, figure.counter, slow, groups);
  return j;
}

// The heatmaps (report_scope.h's heatmap_counters) of the matrices there are; the judged figure
// always. A map's "verdict" names the section whose flagged pairs and hosts it outlines.
nlohmann::json heatmaps_json(const JudgedFigure& figure, const std::vector<std::string>& matrices) {
  const auto has = [&](const std::string& counter) {
    return std::find(matrices.begin(), matrices.end(), counter) != matrices.end();
  };
  nlohmann::json heatmaps = nlohmann::json::array();
  for (const std::string& counter : heatmap_counters(figure.counter)) {
    if (counter == figure.counter)
      heatmaps.push_back({{"counter", counter},
                          {"higher_is_better", figure.higher_is_better},
                          {"verdict", "outliers"}});
    else if (has(counter) && counter == kResendsCounter)
      heatmaps.push_back({{"counter", counter}, {"higher_is_better", false}, {"verdict", "wire"}});
    else if (has(counter))
      heatmaps.push_back({{"counter", counter}, {"higher_is_better", false}});
  }
  return heatmaps;
}

// One benchmark's errors and verdicts (its matrices come after: stream_matrices).
nlohmann::json benchmark_report(const ReportRanks& ranks, size_t b, const BenchmarkName& name,
                                const std::vector<std::string>& matrices,
                                const BenchmarkFailures& failures, const MeshJudgement& judge,
                                const MeshGroups* groups) {
  const JudgedFigure figure = judged_figure(name.second);
  nlohmann::json j = {{"name", name.first},
                      {"figure", figure.counter},
                      {"higher_is_better", figure.higher_is_better},
                      {"heatmaps", heatmaps_json(figure, matrices)},
                      {"errors", failures.listed},
                      {"wire", wire_verdict(ranks, b, judge.max_resends, groups)},
                      {"outliers", outliers_verdict(ranks, b, figure, judge.min_fraction, groups)}};
  if (failures.count > failures.listed.size())
    j["errors_not_listed"] = failures.count - failures.listed.size();
  return j;
}

size_t listed_and_not(const nlohmann::json& section, const char* list, const char* more) {
  return section[list].size() + section.value(more, size_t{0});
}

}  // namespace

ReducedReport reduce_mesh_report(const ReportRanks& ranks,
                                 const std::vector<BenchmarkName>& benchmarks,
                                 const nlohmann::json& context, const nlohmann::json& hosts,
                                 const MeshJudgement& judge, const MeshGroups* groups) {
  check_min_fraction(judge.min_fraction);
  ReducedReport out;
  nlohmann::json reported = nlohmann::json::array();
  std::set<int> slow_hosts, resending_hosts;
  std::set<std::string> slow_groups, resending_groups;
  size_t slow_pairs = 0, failed_pairs = 0, resending_pairs = 0;
  int exit_code = 0;
  for (size_t b = 0; b < benchmarks.size(); ++b) {
    const BenchmarkFailures failures = failures_over_ranks(ranks, b);
    if (!failures.any_result) continue;
    out.benchmarks.push_back(b);
    out.matrix_counters.push_back(counters_over_ranks(ranks, b));
    nlohmann::json r = benchmark_report(ranks, b, benchmarks[b], out.matrix_counters.back(),
                                        failures, judge, groups);
    for (const auto& g : r["outliers"].value("slow_groups", nlohmann::json::array()))
      slow_groups.insert(g.get<std::string>());
    for (const auto& g : r["wire"].value("resending_groups", nlohmann::json::array()))
      resending_groups.insert(g.get<std::string>());
    for (int h : r["outliers"]["slow_hosts"]) slow_hosts.insert(h);
    for (int h : r["wire"]["resending_hosts"]) resending_hosts.insert(h);
    slow_pairs += listed_and_not(r["outliers"], "slow_pairs", "slow_pairs_not_listed");
    resending_pairs += listed_and_not(r["wire"], "resending_pairs", "resending_pairs_not_listed");
    failed_pairs += failures.count;
    exit_code = std::max(exit_code, failures.worst_exit_code);
    if (ranks.rank() == 0) reported.push_back(std::move(r));
  }
  if (ranks.rank() != 0) return out;
  if (exit_code == 0 && slow_pairs + resending_pairs > 0)
    exit_code = static_cast<int>(ExitCode::kOutliers);
  nlohmann::json verdict_groups = nullptr;
  if (groups)
    verdict_groups = {{"slow_groups", slow_groups}, {"resending_groups", resending_groups}};
  const nlohmann::json differences = differing_hosts(hosts);
  std::set<int> differing;
  for (const auto& d : differences) differing.insert(d["rank"].get<int>());
  out.report = {{"context", context},
                {"hosts", hosts},
                {"benchmarks", std::move(reported)},
                {"host_differences", differences},
                {"verdict",
                 {{"slow_hosts", slow_hosts},
                  {"slow_pairs", slow_pairs},
                  {"resending_hosts", resending_hosts},
                  {"resending_pairs", resending_pairs},
                  {"failed_pairs", failed_pairs},
                  {"differing_hosts", differing},
                  {"exit_code", exit_code}}}};
  if (groups) out.report["verdict"].update(verdict_groups);
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

nlohmann::json mesh_report(const nlohmann::json& context, const nlohmann::json& hosts,
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
  ReducedReport reduced = reduce_mesh_report(ranks, benchmarks, context, hosts, judge);
  MatricesInReport sink(reduced.report);
  stream_matrices(ranks, reduced, &sink);
  return std::move(reduced.report);
}

}  // namespace rdmabench
