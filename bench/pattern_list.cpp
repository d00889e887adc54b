// The registered patterns' descriptions, apart from their implementations (registry.cpp), so
// that device-free code (the spec, the control-path fuzzer) can name and check patterns.
#include "bench/registry.h"

namespace rdmabench {

namespace {
template <typename... P>
std::vector<Pattern> infos_of(PatternList<P...>) {
  return {Pattern(P::kInfo)...};
}
}  // namespace

const std::vector<Pattern>& registered_patterns() {
  static const std::vector<Pattern> all = infos_of(RegisteredPatterns{});
  return all;
}

}  // namespace rdmabench
