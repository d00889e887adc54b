#include "mesh/mesh_report_text.h"

#include <iomanip>
#include <ostream>
#include <sstream>

#include "core/printable_text.h"
#include "mesh/report_scope.h"

namespace rdmabench {

namespace {

// A failed pair's message as one line (a rank's own text, excerpted to this).
constexpr size_t kPrintedMessageBytes = 1000;

std::string host_label(const std::vector<MeshHost>& hosts, int rank) {
  const MeshHost& h = host_at(hosts, rank);
  return std::to_string(rank) + " " + h.hostname + " " + h.device;
}

// A figure as the summary shows it: bandwidth in Gb/s, anything else as the engine wrote it.
std::string shown(const std::string& figure, double value) {
  const bool bw = figure == "bytes_per_second";
  std::ostringstream text;
  text << std::fixed << std::setprecision(bw ? 3 : 1) << value * (bw ? 8e-9 : 1);
  return text.str();
}

void print_matrix(const MeshBenchmark& b, size_t ranks, std::ostream& out) {
  if (ranks > kPrintedMatrixUpTo) {
    out << b.name << ": " << ranks << " x " << ranks
        << " pairs (the matrices are in --out's report; tools/plot draws them)\n";
    return;
  }
  out << b.name << ": " << (b.figure == "bytes_per_second" ? "Gb/s" : b.figure)
      << ", row = client rank, column = server rank\n"
      << std::setw(8) << "";
  for (size_t s = 0; s < ranks; ++s) out << std::setw(10) << s;
  out << "\n";
  const auto m = b.matrices.find(b.figure);
  for (size_t c = 0; c < ranks; ++c) {
    out << std::setw(8) << c;
    for (size_t s = 0; s < ranks; ++s) {
      const bool has =
          m != b.matrices.end() && m->second.ranks == ranks && m->second.measured(c, s);
      out << std::setw(10) << (has ? shown(b.figure, m->second.at(c, s)) : "-");
    }
    out << "\n";
  }
}

// Each item of `list` (all of them, or the first kPrintedPairs and how many more there are).
template <typename Item, typename PrintOne>
void print_pairs(const std::vector<Item>& list, bool all, std::ostream& out, PrintOne print_one) {
  const size_t shown = all ? list.size() : std::min(list.size(), kPrintedPairs);
  for (size_t i = 0; i < shown; ++i) print_one(list[i]);
  if (shown < list.size())
    out << "  ... and " << list.size() - shown << " more (every one in --out's report)\n";
}

void print_resending(const MeshBenchmark& b, size_t ranks, bool all, std::ostream& out) {
  // The matrices are held up to kPrintedMatrixUpTo ranks (beyond, in --out's file).
  const auto resends = b.matrices.find(kResendsCounter);
  const bool held = resends != b.matrices.end() && resends->second.ranks == ranks;
  print_pairs(b.wire.resending.listed, all, out, [&](const MeshPair& p) {
    out << "  RESENDING pair " << p.client << " -> " << p.server << ": ";
    if (held)
      out << resends->second.at(static_cast<size_t>(p.client), static_cast<size_t>(p.server))
          << " resent";
    else
      out << "resent more";
    out << " per message (--max-resends " << b.wire.max_resends_per_msg << ")\n";
  });
}

// One benchmark: its matrix (small meshes), its median, and its flagged and failed pairs.
void print_benchmark(const MeshBenchmark& b, size_t ranks, std::ostream& out) {
  print_matrix(b, ranks, out);
  const OutliersVerdict& o = b.outliers;
  out << "  median " << shown(b.figure, o.median) << ", slow "
      << (b.higher_is_better ? "below " : "above ") << shown(b.figure, o.threshold)
      << " (--min-fraction " << o.min_fraction << ")\n";
  const bool all = ranks <= kPrintedMatrixUpTo;
  print_pairs(o.slow.listed, all, out, [&](const MeshPair& p) {
    out << "  SLOW pair " << p.client << " -> " << p.server << "\n";
  });
  print_resending(b, ranks, all, out);
  print_pairs(b.errors, all, out, [&](const PairFailure& e) {
    out << "  FAILED pair " << e.client << " -> " << e.server << ": "
        << peer_excerpt(e.message, kPrintedMessageBytes) << "\n";
  });
  out << "\n";
}

void print_differences(const MeshReport& report, std::ostream& out) {
  for (const HostDifference& d : report.host_differences) {
    out << "DIFFERENT HOST " << host_label(report.hosts, d.rank) << ": " << d.key << " " << d.value;
    if (!d.usual)
      out << " (no value is the most common)\n";
    else
      out << " where " << d.hosts_with_usual << " others have " << *d.usual << "\n";
  }
}

// The hosts and groups the verdict names, and its counts.
void print_verdict(const MeshReport& report, std::ostream& out) {
  const MeshVerdict& v = report.verdict;
  for (int h : v.slow_hosts)
    out << "SLOW HOST " << host_label(report.hosts, h) << ": its whole row or column is slow\n";
  for (int h : v.resending_hosts)
    out << "RESENDING HOST " << host_label(report.hosts, h)
        << ": the wire resent on its whole row or column (port counters)\n";
  for (const std::string& g : v.slow_groups.value_or(std::set<std::string>{}))
    out << "SLOW GROUP " << g
        << ": every pair between it and the other groups is slow, not those within it\n";
  for (const std::string& g : v.resending_groups.value_or(std::set<std::string>{}))
    out << "RESENDING GROUP " << g
        << ": the wire resent on every pair between it and the other groups\n";
  print_differences(report, out);
  out << "verdict: " << v.slow_pairs << " slow pairs, " << v.resending_pairs << " resending pairs, "
      << v.failed_pairs << " failed pairs, " << v.slow_hosts.size() << " slow hosts, "
      << v.resending_hosts.size() << " resending hosts, " << v.differing_hosts.size()
      << " hosts set up differently (exit " << v.exit_code << ")\n";
}

}  // namespace

void print_mesh_report(const MeshReport& report, std::ostream& out) {
  for (const MeshBenchmark& b : report.benchmarks) print_benchmark(b, report.hosts.size(), out);
  print_verdict(report, out);
}

}  // namespace rdmabench
