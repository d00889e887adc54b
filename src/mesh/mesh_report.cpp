#include "mesh/mesh_report.h"

#include <algorithm>
#include <set>

#include "core/error.h"
#include "mesh/host_differences.h"

namespace rdmabench {

nlohmann::json PairResult::to_json() const {
  nlohmann::json j = {
      {"benchmark", benchmark}, {"mode", mode}, {"client", pair.client}, {"server", pair.server}};
  if (error.empty())
    j["counters"] = counters;
  else
    j["error"] = {{"message", error}, {"exit_code", exit_code}};
  return j;
}

PairResult PairResult::from_json(const nlohmann::json& j) {
  PairResult r;
  r.benchmark = j.at("benchmark").get<std::string>();
  r.mode = j.at("mode").get<std::string>();
  r.pair = {j.at("client").get<int>(), j.at("server").get<int>()};
  if (j.contains("error")) {
    r.error = j["error"].at("message").get<std::string>();
    r.exit_code = j["error"].at("exit_code").get<int>();
  } else {
    r.counters = j.at("counters").get<std::map<std::string, double>>();
  }
  return r;
}

JudgedFigure judged_figure(const std::string& mode) {
  if (mode == "lat") return {"lat_p50_us", false};
  return {"bytes_per_second", true};
}

namespace {

nlohmann::json matrix_json(const MeshMatrix& m) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : m) {
    nlohmann::json cells = nlohmann::json::array();
    for (const auto& cell : row) cells.push_back(cell ? nlohmann::json(*cell) : nlohmann::json());
    rows.push_back(cells);
  }
  return rows;
}

nlohmann::json pairs_json(const std::vector<MeshPair>& pairs) {
  nlohmann::json out = nlohmann::json::array();
  for (const MeshPair& p : pairs) out.push_back({p.client, p.server});
  return out;
}

// The wire's verdict on a benchmark: pairs that resent more than `max_resends` per message,
// and hosts whose whole row or column did, even where their bandwidth is fine.
nlohmann::json wire_verdict(const MeshMatrix& resends, double max_resends) {
  const OutlierReport o = find_above(resends, max_resends);
  return {{"max_resends_per_msg", max_resends},          {"median", o.median},
          {"resending_pairs", pairs_json(o.slow_pairs)}, {"resending_senders", o.slow_senders},
          {"resending_receivers", o.slow_receivers},     {"resending_hosts", o.slow_hosts()}};
}

// The heatmaps (report_scope.h's heatmap_counters) of the matrices there are; the judged figure
// always. A map's "verdict" names the section whose flagged pairs and hosts it outlines.
nlohmann::json heatmaps_json(const JudgedFigure& figure,
                             const std::map<std::string, MeshMatrix>& matrices) {
  nlohmann::json heatmaps = nlohmann::json::array();
  for (const std::string& counter : heatmap_counters(figure.counter)) {
    if (counter == figure.counter)
      heatmaps.push_back({{"counter", counter},
                          {"higher_is_better", figure.higher_is_better},
                          {"verdict", "outliers"}});
    else if (matrices.count(counter) && counter == kResendsCounter)
      heatmaps.push_back({{"counter", counter}, {"higher_is_better", false}, {"verdict", "wire"}});
    else if (matrices.count(counter))
      heatmaps.push_back({{"counter", counter}, {"higher_is_better", false}});
  }
  return heatmaps;
}

// One benchmark's matrices (every counter `scope` keeps of those its pairs reported), errors
// and verdict.
nlohmann::json benchmark_report(const std::string& name, const std::vector<PairResult>& results,
                                size_t hosts, const MeshJudgement& judge, MatrixScope scope) {
  std::map<std::string, MeshMatrix> matrices;
  nlohmann::json errors = nlohmann::json::array();
  std::string mode;
  for (const PairResult& r : results) {
    if (r.benchmark != name) continue;
    mode = r.mode;
    if (!r.error.empty()) {
      errors.push_back({{"client", r.pair.client},
                        {"server", r.pair.server},
                        {"message", r.error},
                        {"exit_code", r.exit_code}});
      continue;
    }
    const auto cells = report_counters(r.counters, judged_figure(r.mode).counter, scope);
    for (const auto& [counter, value] : cells) {
      auto& m = matrices[counter];
      if (m.empty()) m.assign(hosts, std::vector<std::optional<double>>(hosts));
      m.at(static_cast<size_t>(r.pair.client)).at(static_cast<size_t>(r.pair.server)) = value;
    }
  }
  const JudgedFigure figure = judged_figure(mode);
  const auto matrix_of = [&](const std::string& counter) {
    return matrices.count(counter) ? matrices[counter]
                                   : MeshMatrix(hosts, std::vector<std::optional<double>>(hosts));
  };
  const OutlierReport o =
      find_outliers(matrix_of(figure.counter), {judge.min_fraction, figure.higher_is_better});
  nlohmann::json j = {{"name", name},
                      {"figure", figure.counter},
                      {"higher_is_better", figure.higher_is_better},
                      {"heatmaps", heatmaps_json(figure, matrices)},
                      {"errors", errors},
                      {"wire", wire_verdict(matrix_of(kResendsCounter), judge.max_resends)},
                      {"outliers",
                       {{"min_fraction", judge.min_fraction},
                        {"median", o.median},
                        {"threshold", o.threshold},
                        {"slow_pairs", pairs_json(o.slow_pairs)},
                        {"slow_senders", o.slow_senders},
                        {"slow_receivers", o.slow_receivers},
                        {"slow_hosts", o.slow_hosts()}}}};
  j["matrices"] = nlohmann::json::object();
  for (const auto& [counter, m] : matrices) j["matrices"][counter] = matrix_json(m);
  return j;
}

}  // namespace

nlohmann::json mesh_report(const nlohmann::json& context, const nlohmann::json& hosts,
                           const std::vector<PairResult>& results, const MeshJudgement& judge,
                           MatrixScope scope) {
  std::vector<std::string> names;
  for (const PairResult& r : results)
    if (std::find(names.begin(), names.end(), r.benchmark) == names.end())
      names.push_back(r.benchmark);
  nlohmann::json benchmarks = nlohmann::json::array();
  std::set<int> slow_hosts, resending_hosts;
  size_t slow_pairs = 0, failed_pairs = 0, resending_pairs = 0;
  int exit_code = 0;
  for (const std::string& name : names) {
    nlohmann::json b = benchmark_report(name, results, hosts.size(), judge, scope);
    for (int h : b["outliers"]["slow_hosts"]) slow_hosts.insert(h);
    for (int h : b["wire"]["resending_hosts"]) resending_hosts.insert(h);
    slow_pairs += b["outliers"]["slow_pairs"].size();
    resending_pairs += b["wire"]["resending_pairs"].size();
    failed_pairs += b["errors"].size();
    for (const auto& e : b["errors"]) exit_code = std::max(exit_code, e["exit_code"].get<int>());
    benchmarks.push_back(std::move(b));
  }
  if (exit_code == 0 && slow_pairs + resending_pairs > 0)
    exit_code = static_cast<int>(ExitCode::kOutliers);
  const nlohmann::json differences = differing_hosts(hosts);
  std::set<int> differing;
  for (const auto& d : differences) differing.insert(d["rank"].get<int>());
  return {{"context", context},
          {"hosts", hosts},
          {"benchmarks", benchmarks},
          {"host_differences", differences},
          {"verdict",
           {{"slow_hosts", slow_hosts},
            {"slow_pairs", slow_pairs},
            {"resending_hosts", resending_hosts},
            {"resending_pairs", resending_pairs},
            {"failed_pairs", failed_pairs},
            {"differing_hosts", differing},
            {"exit_code", exit_code}}}};
}

}  // namespace rdmabench
