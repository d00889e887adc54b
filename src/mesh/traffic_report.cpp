#include "mesh/traffic_report.h"

#include <iomanip>
#include <ostream>
#include <sstream>

#include "core/printable_text.h"
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

void print_host(const nlohmann::json& h, const nlohmann::json& hosts, std::ostream& out) {
  const int rank = h.value("rank", -1);
  const nlohmann::json none = nlohmann::json::object();
  const auto& who = rank >= 0 && static_cast<size_t>(rank) < hosts.size()
                        ? hosts[static_cast<size_t>(rank)]
                        : none;
  out << std::setw(6) << rank << "  " << std::left << std::setw(20)
      << peer_excerpt(who.value("hostname", std::string("?")), 20) << std::right << std::setw(10)
      << gbps(h["best_bytes_per_second"].get<double>()) << std::setw(8)
      << h["best_round"].get<uint32_t>() << std::setw(10) << gbps(h["sent_at_best"].get<double>())
      << std::setw(10) << gbps(h["received_at_best"].get<double>()) << std::setw(10)
      << gbps(h["worst_bytes_per_second"].get<double>()) << std::setw(8)
      << h["failed_flows"].get<uint32_t>() << (h["slow"].get<bool>() ? "  SLOW" : "") << "\n";
}

}  // namespace

nlohmann::json traffic_section(const TrafficFacts& facts, const TrafficVerdict& verdict,
                               const std::vector<FlowRow>& failed) {
  nlohmann::json hosts = nlohmann::json::array();
  for (const HostLoad& h : verdict.hosts) hosts.push_back(host_json(h));
  nlohmann::json errors = nlohmann::json::array();
  for (size_t i = 0; i < failed.size() && i < kListedFailedFlows; ++i)
    errors.push_back({{"round", failed[i].round},
                      {"client", failed[i].client},
                      {"server", failed[i].server},
                      {"exit_code", failed[i].exit_code},
                      {"error", failed[i].error}});
  nlohmann::json section = {{"pattern", to_string(facts.plan.kind())},
                            {"fan", facts.plan.fan()},
                            {"streams", facts.streams},
                            {"rounds", facts.plan.rounds()},
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

void print_traffic_report(const nlohmann::json& report, std::ostream& out) {
  const auto& t = report["traffic"];
  const auto& hosts = report["hosts"];
  out << "traffic " << t["pattern"].get<std::string>() << " (fan " << t["fan"].get<int>() << ", "
      << t["streams"].get<uint32_t>() << " stream(s) a flow, " << t["rounds"].get<size_t>()
      << " round(s), " << t["flows"].get<size_t>() << " flows): each host's NIC, sent + "
      << "received, Gb/s (higher is better)\n"
      << std::setw(6) << "rank"
      << "  " << std::left << std::setw(20) << "host" << std::right << std::setw(10) << "best"
      << std::setw(8) << "round" << std::setw(10) << "sent" << std::setw(10) << "received"
      << std::setw(10) << "worst" << std::setw(8) << "failed"
      << "\n";
  const auto& listed = t["hosts"];
  const size_t shown =
      hosts.size() <= kPrintedMatrixUpTo ? listed.size() : std::min(listed.size(), kPrintedPairs);
  for (size_t i = 0; i < shown; ++i) print_host(listed[i], hosts, out);
  if (shown < listed.size())
    out << "  ... and " << listed.size() - shown << " more hosts (every one in --out's report)\n";
  for (size_t i = 0; i < t["errors"].size() && i < kPrintedPairs; ++i) {
    const auto& e = t["errors"][i];
    out << "failed: round " << e["round"].get<uint32_t>() << ", " << e["client"].get<int>()
        << " -> " << e["server"].get<int>() << ": "
        << peer_excerpt(e["error"].get<std::string>(), 200) << "\n";
  }
  out << "median " << gbps(t["median"].get<double>()) << " Gb/s; a host is slow when its best "
      << "round is below " << gbps(t["threshold"].get<double>()) << " Gb/s ("
      << t["min_fraction"].get<double>() << " of the median)\n";
  const auto& v = report["verdict"];
  out << "verdict: " << t["failed_flows"].get<size_t>() << " failed flows, "
      << v["slow_hosts"].size() << " slow hosts" << (v["slow_hosts"].empty() ? "" : ":");
  for (const auto& r : v["slow_hosts"]) out << " " << r.get<int>();
  out << " (exit " << v["exit_code"].get<int>() << ")\n";
}

}  // namespace rdmabench
