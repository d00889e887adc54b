#include "search/expectation_rules.h"

#include <algorithm>
#include <cmath>

namespace rdmabench {

// One rule a line. clang-format off
const std::vector<Rule>& registered_rules() {
  static const std::vector<Rule> rules = {
      {"bandwidth-falls-with-size", "bandwidth does not fall as the message size grows",
       Expectation::kNotFalling, "bytes_per_second", "sizes", "mode=bw"},
      {"message-rate-rises-with-size", "message rate does not rise as the message size grows",
       Expectation::kNotRising, "msgs_per_second", "sizes", "mode=bw"},
      {"bandwidth-falls-with-qps", "bandwidth does not fall as QPs are added",
       Expectation::kNotFalling, "bytes_per_second", "qps", "mode=bw"},
      {"bandwidth-falls-with-threads", "bandwidth does not fall as threads are added",
       Expectation::kNotFalling, "bytes_per_second", "threads", "mode=bw"},
      {"bandwidth-falls-with-post-list", "bandwidth does not fall as the post list grows",
       Expectation::kNotFalling, "bytes_per_second", "post-list", "mode=bw"},
      {"bandwidth-falls-with-tx-depth", "bandwidth does not fall as the send queue deepens",
       Expectation::kNotFalling, "bytes_per_second", "tx-depth", "mode=bw"},
      {"bidir-adds-up-to-less-than-one", "the two directions of --bidir add up to at least one",
       Expectation::kNotFalling, "bytes_per_second", "bidir", "mode=bw"},
      {"latency-falls-with-size", "latency does not fall as the message size grows",
       Expectation::kNotFalling, "lat_p50_us", "sizes", "mode=lat"},
      {"tail-jumps-with-size", "the latency tail stays in step with its median as the size grows",
       Expectation::kSmooth, "lat_p99_us/lat_p50_us", "sizes", "mode=lat"},
      {"client-cpu-steps-with-size", "the client's CPU per message changes smoothly with size",
       Expectation::kSmooth, "client_cpu_us_per_msg", "sizes", ""},
      {"server-cpu-steps-with-size", "the server's CPU per message changes smoothly with size",
       Expectation::kSmooth, "server_cpu_us_per_msg", "sizes", ""},
      {"resends-on-a-clean-link", "a clean link resends nothing", Expectation::kZero,
       "wire_retransmissions", "", ""},
      {"bandwidth-falls-with-mtu", "bandwidth does not fall as the MTU grows",
       Expectation::kNotFalling, "bytes_per_second", "mtu", "mode=bw"},
      {"rate-falls-without-reliability", "message rate does not fall from rc to uc to ud",
       Expectation::kNotFalling, "msgs_per_second", "transport", "mode=bw"},
      {"rate-falls-with-offered-load", "the message rate does not fall as the offered rate rises",
       Expectation::kNotFalling, "msgs_per_second", "rate", "mode=bw"},
      {"cpu-buys-no-latency",
       "a CQ strategy that costs the client more CPU per round trip has lower latency",
       Expectation::kCostBuysLower, "lat_p50_us", "cq", "mode=lat", "client_cpu_us_per_msg"},
  };
  return rules;
}
// clang-format on

const Rule* find_rule(std::string_view name) {
  for (const Rule& r : registered_rules())
    if (r.name == name) return &r;
  return nullptr;
}

bool rule_applies(const Rule& rule, const Point& point) {
  if (rule.only_if.empty()) return true;
  const size_t eq = rule.only_if.find('=');
  const auto it = point.find(std::string(rule.only_if.substr(0, eq)));
  return it != point.end() && it->second == rule.only_if.substr(eq + 1);
}

std::optional<Band> figure_band(const Rule& rule, const Observation& observation) {
  if (!observation.ok()) return std::nullopt;
  const size_t slash = rule.counter.find('/');
  if (slash == std::string_view::npos) return observation.band(std::string(rule.counter));
  const std::string top(rule.counter.substr(0, slash)), bottom(rule.counter.substr(slash + 1));
  Observation ratios;
  for (const Counters& run : observation.runs) {
    const auto t = run.find(top), b = run.find(bottom);
    if (t != run.end() && b != run.end() && b->second > 0)
      ratios.runs.push_back({{"ratio", t->second / b->second}});
  }
  return ratios.band("ratio");
}

std::string Violation::key() const {
  return std::string(rule->name) + "|" + point_key(low) + "|" + point_key(high);
}

}  // namespace rdmabench
