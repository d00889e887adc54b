#include "mesh/mesh_report_json.h"

#include <cmath>

namespace rdmabench {

namespace {

nlohmann::json pairs_json(const std::vector<MeshPair>& pairs) {
  nlohmann::json out = nlohmann::json::array();
  for (const MeshPair& p : pairs) out.push_back({p.client, p.server});
  return out;
}

// A verdict's flagged pairs and hosts under its own word: "slow_pairs", "resending_hosts"...
void add_flagged(const FlaggedPairs& f, const std::string& word, nlohmann::json& into) {
  into[word + "_pairs"] = pairs_json(f.listed);
  into[word + "_senders"] = f.senders;
  into[word + "_receivers"] = f.receivers;
  into[word + "_hosts"] = f.hosts;
  if (f.not_listed > 0) into[word + "_pairs_not_listed"] = f.not_listed;
  if (f.groups) into[word + "_groups"] = *f.groups;
}

nlohmann::json outliers_json(const OutliersVerdict& o) {
  nlohmann::json j = {
      {"min_fraction", o.min_fraction}, {"median", o.median}, {"threshold", o.threshold}};
  add_flagged(o.slow, "slow", j);
  return j;
}

nlohmann::json wire_json(const WireVerdict& w) {
  nlohmann::json j = {{"max_resends_per_msg", w.max_resends_per_msg}, {"median", w.median}};
  add_flagged(w.resending, "resending", j);
  return j;
}

nlohmann::json heatmaps_json(const std::vector<Heatmap>& heatmaps) {
  nlohmann::json out = nlohmann::json::array();
  for (const Heatmap& h : heatmaps) {
    nlohmann::json j = {{"counter", h.counter}, {"higher_is_better", h.higher_is_better}};
    if (h.verdict) j["verdict"] = *h.verdict;
    out.push_back(std::move(j));
  }
  return out;
}

nlohmann::json errors_json(const std::vector<PairFailure>& errors) {
  nlohmann::json out = nlohmann::json::array();
  for (const PairFailure& e : errors)
    out.push_back({{"client", e.client},
                   {"server", e.server},
                   {"message", e.message},
                   {"exit_code", e.exit_code}});
  return out;
}

nlohmann::json matrix_json(const PairMatrix& m) {
  nlohmann::json rows = nlohmann::json::array();
  for (size_t c = 0; m.ranks > 0 && c < m.cells.size() / m.ranks; ++c)
    rows.push_back(row_json(std::span<const double>(m.cells).subspan(c * m.ranks, m.ranks)));
  return rows;
}

}  // namespace

nlohmann::json row_json(std::span<const double> values) {
  nlohmann::json cells = nlohmann::json::array();
  for (double v : values) cells.push_back(std::isfinite(v) ? nlohmann::json(v) : nlohmann::json());
  return cells;
}

nlohmann::json hosts_json(const std::vector<MeshHost>& hosts) {
  nlohmann::json out = nlohmann::json::array();
  for (const MeshHost& h : hosts) {
    nlohmann::json j = h.identity;
    if (h.group && j.is_object()) j["group"] = *h.group;
    out.push_back(std::move(j));
  }
  return out;
}

nlohmann::json host_differences_json(const std::vector<HostDifference>& differences) {
  nlohmann::json out = nlohmann::json::array();
  for (const HostDifference& d : differences)
    out.push_back({{"rank", d.rank},
                   {"hostname", d.hostname},
                   {"key", d.key},
                   {"value", d.value},
                   {"usual", d.usual ? nlohmann::json(*d.usual) : nlohmann::json(nullptr)},
                   {"hosts_with_usual", d.hosts_with_usual}});
  return out;
}

nlohmann::json verdict_json(const MeshVerdict& v) {
  nlohmann::json j = {{"slow_hosts", v.slow_hosts},
                      {"slow_pairs", v.slow_pairs},
                      {"resending_hosts", v.resending_hosts},
                      {"resending_pairs", v.resending_pairs},
                      {"failed_pairs", v.failed_pairs},
                      {"differing_hosts", v.differing_hosts},
                      {"exit_code", v.exit_code}};
  if (v.slow_groups) j["slow_groups"] = *v.slow_groups;
  if (v.resending_groups) j["resending_groups"] = *v.resending_groups;
  return j;
}

nlohmann::json benchmark_json(const MeshBenchmark& b) {
  nlohmann::json j = {{"name", b.name},
                      {"figure", b.figure},
                      {"higher_is_better", b.higher_is_better},
                      {"heatmaps", heatmaps_json(b.heatmaps)},
                      {"errors", errors_json(b.errors)},
                      {"wire", wire_json(b.wire)},
                      {"outliers", outliers_json(b.outliers)}};
  if (b.errors_not_listed > 0) j["errors_not_listed"] = b.errors_not_listed;
  return j;
}

nlohmann::json mesh_report_json(const MeshReport& report) {
  nlohmann::json benchmarks = nlohmann::json::array();
  for (const MeshBenchmark& b : report.benchmarks) {
    nlohmann::json j = benchmark_json(b);
    nlohmann::json& matrices = j["matrices"] = nlohmann::json::object();
    for (const auto& [counter, matrix] : b.matrices) matrices[counter] = matrix_json(matrix);
    benchmarks.push_back(std::move(j));
  }
  return {{"context", report.context},
          {"hosts", hosts_json(report.hosts)},
          {"benchmarks", std::move(benchmarks)},
          {"host_differences", host_differences_json(report.host_differences)},
          {"verdict", verdict_json(report.verdict)}};
}

}  // namespace rdmabench
