#include "mesh/host_differences.h"

#include <map>
#include <set>
#include <string>

namespace rdmabench {

namespace {

// The value more hosts have than any other, or "" when two values tie for that.
std::pair<std::string, int> usual_value(const std::map<std::string, int>& counts) {
  std::string best;
  int most = 0;
  bool tie = false;
  for (const auto& [value, n] : counts) {
    if (n > most) {
      best = value;
      most = n;
      tie = false;
    } else if (n == most) {
      tie = true;
    }
  }
  return tie ? std::pair<std::string, int>{"", most} : std::pair<std::string, int>{best, most};
}

}  // namespace

nlohmann::json differing_hosts(const nlohmann::json& hosts) {
  std::set<std::string> keys;
  for (const auto& h : hosts)
    if (h.contains("doctor") && h["doctor"].is_object())
      for (const auto& [key, value] : h["doctor"].items()) keys.insert(key);
  nlohmann::json found = nlohmann::json::array();
  for (const std::string& key : keys) {
    std::map<std::string, int> counts;
    for (const auto& h : hosts)
      if (h.contains("doctor") && h["doctor"].contains(key))
        ++counts[h["doctor"][key].get<std::string>()];
    if (counts.size() < 2) continue;
    const auto [usual, with_usual] = usual_value(counts);
    for (const auto& h : hosts) {
      if (!h.contains("doctor") || !h["doctor"].contains(key)) continue;
      const std::string value = h["doctor"][key].get<std::string>();
      if (!usual.empty() && value == usual) continue;
      found.push_back({{"rank", h.value("rank", -1)},
                       {"hostname", h.value("hostname", std::string("?"))},
                       {"key", key},
                       {"value", value},
                       {"usual", usual.empty() ? nlohmann::json(nullptr) : nlohmann::json(usual)},
                       {"hosts_with_usual", usual.empty() ? 0 : with_usual}});
    }
  }
  return found;
}

}  // namespace rdmabench
