#include "spec/pattern_info.h"

#include "core/error.h"

namespace rdmabench {

std::string_view to_string(Arrival a) {
  return a == Arrival::kReceive ? "receive" : a == Arrival::kMarker ? "marker" : "completion";
}

bool PatternInfo::data_to_initiator() const noexcept {
  return opcode == IBV_WR_RDMA_READ || is_atomic(opcode);
}

std::string TransportNeeds::text() const {
  if (!reliable && !connected) return "runs over any transport";
  return std::string("needs a ") + (reliable ? "reliable " : "") + (connected ? "connected " : "") +
         "transport";
}

PatternSizes expand_patterns(const std::vector<Pattern>& patterns,
                             const std::vector<uint64_t>& sizes, Transport transport, bool srq,
                             bool all) {
  PatternSizes out;
  for (const Pattern& p : patterns) {
    const bool fits = p->needs.met_by(transport.info());
    if (!fits || (srq && !p->target_receives)) {
      const std::string why = fits ? "its target takes no receives, which --srq shares"
                                   : p->needs.text() + ", not " + transport.name();
      if (!all) throw Error(ExitCode::kUsage, "--pattern " + p.name() + ": " + why);
      out.skipped.push_back({p, 0, why});
      continue;
    }
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
    throw Error(ExitCode::kUsage,
                "no pattern accepts any of the --sizes given over " + transport.name());
  return out;
}

}  // namespace rdmabench
