// The registered strategies' descriptions (kept apart from strategy_registry.cpp, which sets
// devices up, so that parsing links without verbs: the fuzzer uses it).
#include "cq/strategy_registry.h"

namespace rdmabench {

namespace {
template <typename... P>
std::vector<StrategyInfo> infos_of(PollerList<P...>) {
  return {P::kInfo...};
}
}  // namespace

const std::vector<StrategyInfo>& registered_strategies() {
  static const std::vector<StrategyInfo> infos = infos_of(RegisteredPollers{});
  return infos;
}

}  // namespace rdmabench
