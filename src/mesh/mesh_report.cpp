#include "mesh/mesh_report.h"

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <set>
#include <sstream>

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

namespace {

std::string host_label(const nlohmann::json& hosts, int rank) {
  const auto& h = hosts.at(static_cast<size_t>(rank));
  return std::to_string(rank) + " " + h.value("hostname", std::string("?")) + " " +
         h.value("device", std::string("?"));
}

// A figure as the summary shows it: bandwidth in Gb/s, anything else as the engine wrote it.
std::string shown(const std::string& figure, double value) {
  const bool bw = figure == "bytes_per_second";
  std::ostringstream text;
  text << std::fixed << std::setprecision(bw ? 3 : 1) << value * (bw ? 8e-9 : 1);
  return text.str();
}

void print_matrix(const nlohmann::json& b, const nlohmann::json& hosts, std::ostream& out) {
  const std::string figure = b["figure"];
  if (hosts.size() > kPrintedMatrixUpTo) {
    out << b["name"].get<std::string>() << ": " << hosts.size() << " x " << hosts.size()
        << " pairs (the matrices are in --out's report; tools/plot draws them)\n";
    return;
  }
  out << b["name"].get<std::string>() << ": " << (figure == "bytes_per_second" ? "Gb/s" : figure)
      << ", row = client rank, column = server rank\n"
      << std::setw(8) << "";
  for (size_t s = 0; s < hosts.size(); ++s) out << std::setw(10) << s;
  out << "\n";
  const auto& m = b["matrices"].contains(figure) ? b["matrices"][figure] : nlohmann::json();
  for (size_t c = 0; c < hosts.size(); ++c) {
    out << std::setw(8) << c;
    for (size_t s = 0; s < hosts.size(); ++s) {
      const bool has = m.is_array() && !m[c][s].is_null();
      out << std::setw(10) << (has ? shown(figure, m[c][s].get<double>()) : "-");
    }
    out << "\n";
  }
}

// Each item of `list` (all of them, or the first kPrintedPairs and how many more there are).
template <typename PrintOne>
void print_pairs(const nlohmann::json& list, bool all, std::ostream& out, PrintOne print_one) {
  const size_t shown = all ? list.size() : std::min(list.size(), kPrintedPairs);
  for (size_t i = 0; i < shown; ++i) print_one(list[i]);
  if (shown < list.size())
    out << "  ... and " << list.size() - shown << " more (every one in --out's report)\n";
}

}  // namespace

void print_mesh_report(const nlohmann::json& report, std::ostream& out) {
  const auto& hosts = report["hosts"];
  for (const auto& b : report["benchmarks"]) {
    print_matrix(b, hosts, out);
    const auto& o = b["outliers"];
    const std::string figure = b["figure"];
    out << "  median " << shown(figure, o["median"].get<double>()) << ", slow "
        << (b["higher_is_better"].get<bool>() ? "below " : "above ")
        << shown(figure, o["threshold"].get<double>()) << " (--min-fraction "
        << o["min_fraction"].get<double>() << ")\n";
    const bool all = hosts.size() <= kPrintedMatrixUpTo;
    print_pairs(o["slow_pairs"], all, out, [&](const nlohmann::json& p) {
      out << "  SLOW pair " << p[0].get<int>() << " -> " << p[1].get<int>() << "\n";
    });
    const auto& w = b["wire"];
    print_pairs(w["resending_pairs"], all, out, [&](const nlohmann::json& p) {
      out << "  RESENDING pair " << p[0].get<int>() << " -> " << p[1].get<int>() << ": "
          << b["matrices"][kResendsCounter][p[0].get<size_t>()][p[1].get<size_t>()].get<double>()
          << " resent per message (--max-resends " << w["max_resends_per_msg"].get<double>()
          << ")\n";
    });
    print_pairs(b["errors"], all, out, [&](const nlohmann::json& e) {
      out << "  FAILED pair " << e["client"].get<int>() << " -> " << e["server"].get<int>() << ": "
          << e["message"].get<std::string>() << "\n";
    });
    out << "\n";
  }
  const auto& v = report["verdict"];
  for (int h : v["slow_hosts"])
    out << "SLOW HOST " << host_label(hosts, h) << ": its whole row or column is slow\n";
  for (int h : v["resending_hosts"])
    out << "RESENDING HOST " << host_label(hosts, h)
        << ": the wire resent on its whole row or column (port counters)\n";
  for (const auto& d : report.value("host_differences", nlohmann::json::array())) {
    out << "DIFFERENT HOST " << host_label(hosts, d["rank"].get<int>()) << ": "
        << d["key"].get<std::string>() << " " << d["value"].get<std::string>();
    if (d["usual"].is_null())
      out << " (no value is the most common)\n";
    else
      out << " where " << d["hosts_with_usual"].get<int>() << " others have "
          << d["usual"].get<std::string>() << "\n";
  }
  out << "verdict: " << v["slow_pairs"].get<size_t>() << " slow pairs, "
      << v["resending_pairs"].get<size_t>() << " resending pairs, "
      << v["failed_pairs"].get<size_t>() << " failed pairs, " << v["slow_hosts"].size()
      << " slow hosts, " << v["resending_hosts"].size() << " resending hosts, "
      << v.value("differing_hosts", nlohmann::json::array()).size()
      << " hosts set up differently (exit " << v["exit_code"].get<int>() << ")\n";
}

}  // namespace rdmabench
