#include "bench/pattern_registry.h"
#include "bench/pattern_catalogue.h"

#include "core/error.h"

namespace rdmabench {

namespace {
template <typename First, typename... Rest>
std::unique_ptr<TransportPattern> make_of(PatternList<First, Rest...>, Pattern pattern) {
  if (pattern == Pattern(First::kInfo)) return std::make_unique<First>();
  if constexpr (sizeof...(Rest) > 0) {
    return make_of(PatternList<Rest...>{}, pattern);
  } else {
    throw Error(ExitCode::kInternal, "unregistered pattern " + pattern.name());
  }
}
}  // namespace

std::unique_ptr<TransportPattern> make_pattern(Pattern pattern) {
  return make_of(RegisteredPatterns{}, pattern);
}

}  // namespace rdmabench
