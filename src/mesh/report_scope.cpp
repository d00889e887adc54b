#include "mesh/report_scope.h"

#include <algorithm>

#include "core/error.h"

namespace rdmabench {

MatrixScope parse_matrix_scope(const std::string& text, size_t ranks) {
  if (text == "all") return MatrixScope::kAll;
  if (text == "heatmaps") return MatrixScope::kHeatmaps;
  if (text == "auto") return ranks <= kAllMatricesUpTo ? MatrixScope::kAll : MatrixScope::kHeatmaps;
  throw Error(ExitCode::kUsage, "--matrices: unknown '" + text + "' (auto, all or heatmaps)");
}

const char* to_string(MatrixScope scope) {
  return scope == MatrixScope::kAll ? "all" : "heatmaps";
}

std::vector<std::string> heatmap_counters(const std::string& figure) {
  std::vector<std::string> out = {figure, kResendsCounter};
  for (const char* extra : {"lat_p99_us", "client_cpu_us_per_msg", "server_cpu_us_per_msg"})
    if (extra != figure) out.emplace_back(extra);
  return out;
}

std::map<std::string, double> report_counters(std::map<std::string, double> counters,
                                              const std::string& figure, MatrixScope scope) {
  const auto msgs = counters.find("msgs");
  const auto episodes = counters.find("wire_resend_episodes");
  if (episodes != counters.end() && msgs != counters.end() && msgs->second > 0)
    counters[kResendsCounter] = episodes->second / msgs->second;
  if (scope == MatrixScope::kAll) return counters;
  std::vector<std::string> kept = heatmap_counters(figure);
  kept.emplace_back("judged_spread");
  std::map<std::string, double> out;
  for (const std::string& name : kept)
    if (const auto it = counters.find(name); it != counters.end()) out.insert(*it);
  return out;
}

}  // namespace rdmabench
