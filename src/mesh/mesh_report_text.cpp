#include "mesh/mesh_report_text.h"

#include <iomanip>
#include <ostream>
#include <sstream>

#include "mesh/mesh_report.h"
#include "mesh/report_scope.h"

namespace rdmabench {

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
  const nlohmann::json none;
  const auto& m =
      b.contains("matrices") && b["matrices"].contains(figure) ? b["matrices"][figure] : none;
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

namespace {

// One benchmark: its matrix (small meshes), its median, and its flagged and failed pairs.
void print_benchmark(const nlohmann::json& b, const nlohmann::json& hosts, std::ostream& out) {
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
  // The matrices are in the report up to kPrintedMatrixUpTo ranks (beyond, in --out's file).
  const auto* resends = b.contains("matrices") && b["matrices"].contains(kResendsCounter)
                            ? &b["matrices"][kResendsCounter]
                            : nullptr;
  print_pairs(w["resending_pairs"], all, out, [&](const nlohmann::json& p) {
    out << "  RESENDING pair " << p[0].get<int>() << " -> " << p[1].get<int>() << ": ";
    if (resends)
      out << (*resends)[p[0].get<size_t>()][p[1].get<size_t>()].get<double>() << " resent";
    else
      out << "resent more";
    out << " per message (--max-resends " << w["max_resends_per_msg"].get<double>() << ")\n";
  });
  print_pairs(b["errors"], all, out, [&](const nlohmann::json& e) {
    out << "  FAILED pair " << e["client"].get<int>() << " -> " << e["server"].get<int>() << ": "
        << e["message"].get<std::string>() << "\n";
  });
  out << "\n";
}

// The hosts and groups the verdict names, and its counts.
void print_verdict(const nlohmann::json& report, std::ostream& out) {
  const auto& hosts = report["hosts"];
  const auto& v = report["verdict"];
  for (int h : v["slow_hosts"])
    out << "SLOW HOST " << host_label(hosts, h) << ": its whole row or column is slow\n";
  for (int h : v["resending_hosts"])
    out << "RESENDING HOST " << host_label(hosts, h)
        << ": the wire resent on its whole row or column (port counters)\n";
  for (const auto& g : v.value("slow_groups", nlohmann::json::array()))
    out << "SLOW GROUP " << g.get<std::string>()
        << ": every pair between it and the other groups is slow, not those within it\n";
  for (const auto& g : v.value("resending_groups", nlohmann::json::array()))
    out << "RESENDING GROUP " << g.get<std::string>()
        << ": the wire resent on every pair between it and the other groups\n";
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

}  // namespace

void print_mesh_report(const nlohmann::json& report, std::ostream& out) {
  for (const auto& b : report["benchmarks"]) print_benchmark(b, report["hosts"], out);
  print_verdict(report, out);
}

}  // namespace rdmabench
