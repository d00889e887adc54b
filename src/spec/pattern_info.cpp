#include "spec/pattern_info.h"

#include "core/error.h"

namespace rdmabench {

std::string_view to_string(Arrival a) {
  return a == Arrival::kReceive ? "receive" : a == Arrival::kMarker ? "marker" : "completion";
}

PatternSizes expand_patterns(const std::vector<Pattern>& patterns,
                             const std::vector<uint64_t>& sizes, bool all) {
  PatternSizes out;
  for (const Pattern& p : patterns) {
    std::vector<uint64_t> accepted;
    for (uint64_t size : sizes) {
      if (p->sizes.accepts(size)) {
        accepted.push_back(size);
        continue;
      }
      if (!all)
        throw Error(ExitCode::kUsage, "--pattern " + p.name() + " with --sizes " +
                                          std::to_string(size) + ": " + std::string(p->sizes.why));
      out.skipped.push_back({p, size, std::string(p->sizes.why)});
    }
    if (!accepted.empty()) out.runs.emplace_back(p, std::move(accepted));
  }
  if (out.runs.empty())
    throw Error(ExitCode::kUsage, "no pattern accepts any of the --sizes given");
  return out;
}

}  // namespace rdmabench
