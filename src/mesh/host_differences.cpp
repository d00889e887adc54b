#include "mesh/host_differences.h"

#include <map>
#include <optional>
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

std::vector<HostDifference> differing_hosts(const std::vector<MeshHost>& hosts) {
  std::set<std::string> keys;
  for (const MeshHost& h : hosts)
    for (const auto& finding : h.doctor) keys.insert(finding.first);
  std::vector<HostDifference> found;
  for (const std::string& key : keys) {
    std::map<std::string, int> counts;
    for (const MeshHost& h : hosts)
      if (const auto it = h.doctor.find(key); it != h.doctor.end()) ++counts[it->second];
    if (counts.size() < 2) continue;
    const auto [usual, with_usual] = usual_value(counts);
    for (const MeshHost& h : hosts) {
      const auto it = h.doctor.find(key);
      if (it == h.doctor.end() || (!usual.empty() && it->second == usual)) continue;
      found.push_back({h.rank, h.hostname, key, it->second,
                       usual.empty() ? std::nullopt : std::optional<std::string>(usual),
                       usual.empty() ? 0 : with_usual});
    }
  }
  return found;
}

}  // namespace rdmabench
