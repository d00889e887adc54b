// The registered patterns' descriptions, apart from their implementations (pattern_registry.cpp),
// so that device-free code (the spec's JSON, the control-path fuzzer) can name and check patterns.
#include "bench/pattern_catalogue.h"
#include "bench/pattern_registry.h"
#include "core/comma_list.h"

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

std::optional<Pattern> parse_pattern(const std::string& name) {
  return find_named(registered_patterns(), name);
}

std::string pattern_names() {
  return join_comma_list(registered_patterns(), [](const Pattern& p) { return p->name; });
}

}  // namespace rdmabench
