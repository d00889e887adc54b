#include "mesh/traffic_report.h"

#include <iomanip>
#include <ostream>
#include <sstream>

#include "core/printable_text.h"
#include "mesh/mesh_report_json.h"
#include "mesh/mesh_report_text.h"

namespace rdmabench {

namespace {

std::string gbps(double bytes_per_second) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(3) << bytes_per_second * 8e-9;
  return text.str();
}

nlohmann::json host_json(const HostLoad& h) {
  return {{"rank", h.rank},
          {"flows", h.flows},
          {"failed_flows", h.failed_flows},
          {"best_bytes_per_second", h.best},
          {"best_round", h.best_round},
          {"sent_at_best", h.sent_at_best},
          {"received_at_best", h.received_at_best},
          {"worst_bytes_per_second", h.worst},
          {"slow", h.slow}};
}

void print_host(const HostLoad& h, const std::vector<MeshHost>& hosts, std::ostream& out) {
  out << std::setw(6) << h.rank << "  " << std::left << std::setw(20)
      << peer_excerpt(host_at(hosts, h.rank).hostname, 20) << std::right << std::setw(10)
      << gbps(h.best) << std::setw(8) << h.best_round << std::setw(10) << gbps(h.sent_at_best)
      << std::setw(10) << gbps(h.received_at_best) << std::setw(10) << gbps(h.worst) << std::setw(8)
      << h.failed_flows << (h.slow ? "  SLOW" : "") << "\n";
}

nlohmann::json traffic_section(const TrafficReport& r) {
  const TrafficFacts& facts = r.facts;
  const TrafficVerdict& verdict = r.verdict;
  nlohmann::json hosts = nlohmann::json::array();
  for (const HostLoad& h : verdict.hosts) hosts.push_back(host_json(h));
  nlohmann::json errors = nlohmann::json::array();
  for (size_t i = 0; i < r.failed.size() && i < kListedFailedFlows; ++i)
    errors.push_back({{"round", r.failed[i].round},
                      {"client", r.failed[i].client},
                      {"server", r.failed[i].server},
                      {"exit_code", r.failed[i].exit_code},
                      {"error", r.failed[i].error}});
  nlohmann::json section = {{"pattern", to_string(facts.pattern)},
                            {"fan", facts.fan},
                            {"streams", facts.streams},
                            {"rounds", facts.rounds},
                            {"repetitions", facts.repetitions},
                            {"duration_s", facts.duration_s},
                            {"flows", facts.flows},
                            {"failed_flows", verdict.failed_flows},
                            {"figure", "bytes_per_second"},
                            {"median", verdict.median},
                            {"min_fraction", facts.min_fraction},
                            {"threshold", verdict.threshold},
                            {"hosts", std::move(hosts)},
                            {"slow_hosts", verdict.slow_hosts},
                            {"errors", std::move(errors)}};
  if (verdict.failed_flows > kListedFailedFlows)
    section["errors_not_listed"] = verdict.failed_flows - kListedFailedFlows;
  return section;
}

nlohmann::json traffic_verdict_json(const TrafficVerdict& verdict) {
  return {{"exit_code", verdict.exit_code},
          {"failed_pairs", verdict.failed_flows},
          {"slow_pairs", 0},
          {"slow_hosts", verdict.slow_hosts}};
}

void print_header(const TrafficFacts& t, std::ostream& out) {
  out << "traffic " << to_string(t.pattern) << " (fan " << t.fan << ", " << t.streams
      << " stream(s) a flow, " << t.rounds << " round(s), " << t.flows
      << " flows): each host's NIC, sent + received, Gb/s (higher is better)\n"
      << std::setw(6) << "rank"
      << "  " << std::left << std::setw(20) << "host" << std::right << std::setw(10) << "best"
      << std::setw(8) << "round" << std::setw(10) << "sent" << std::setw(10) << "received"
      << std::setw(10) << "worst" << std::setw(8) << "failed"
      << "\n";
}

}  // namespace

TrafficFacts traffic_facts(const TrafficPlan& plan, uint32_t streams, uint32_t repetitions,
                           double duration_s, double min_fraction, size_t flows) {
  return {plan.kind(), plan.fan(), plan.rounds(), streams,
          repetitions, duration_s, min_fraction,  flows};
}

nlohmann::json traffic_report_json(const TrafficReport& report) {
  return {{"context", report.context},
          {"hosts", hosts_json(report.hosts)},
          {"benchmarks", nlohmann::json::array()},
          {"traffic", traffic_section(report)},
          {"verdict", traffic_verdict_json(report.verdict)}};
}

void print_traffic_report(const TrafficReport& report, std::ostream& out) {
  print_header(report.facts, out);
  const std::vector<HostLoad>& listed = report.verdict.hosts;
  const size_t shown = report.hosts.size() <= kPrintedMatrixUpTo
                           ? listed.size()
                           : std::min(listed.size(), kPrintedPairs);
  for (size_t i = 0; i < shown; ++i) print_host(listed[i], report.hosts, out);
  if (shown < listed.size())
    out << "  ... and " << listed.size() - shown << " more hosts (every one in --out's report)\n";
  for (size_t i = 0; i < report.failed.size() && i < kPrintedPairs; ++i) {
    const FlowRow& e = report.failed[i];
    out << "failed: round " << e.round << ", " << e.client << " -> " << e.server << ": "
        << peer_excerpt(e.error, 200) << "\n";
  }
  const TrafficVerdict& v = report.verdict;
  out << "median " << gbps(v.median) << " Gb/s; a host is slow when its best round is below "
      << gbps(v.threshold) << " Gb/s (" << report.facts.min_fraction << " of the median)\n";
  out << "verdict: " << v.failed_flows << " failed flows, " << v.slow_hosts.size() << " slow hosts"
      << (v.slow_hosts.empty() ? "" : ":");
  for (int r : v.slow_hosts) out << " " << r;
  out << " (exit " << v.exit_code << ")\n";
}

}  // namespace rdmabench
