#include "cq/strategy_registry.h"

namespace rdmabench {

namespace {

template <typename... P>
void prepare_of(PollerList<P...>, CompletionQueue& cq, const Context& context,
                const CqStrategy& strategy) {
  auto one = [&]<typename Poller>() {
    if constexpr (requires { Poller::prepare(cq, context, strategy); })
      if (strategy.name == Poller::kInfo.name) Poller::prepare(cq, context, strategy);
  };
  (one.template operator()<P>(), ...);
}

template <typename... P>
std::string refusal_of(PollerList<P...>, const Context& context, const CqStrategy& strategy) {
  std::string why;
  auto one = [&]<typename Poller>() {
    if constexpr (requires { Poller::refusal(context, strategy); })
      if (strategy.name == Poller::kInfo.name) why = Poller::refusal(context, strategy);
  };
  (one.template operator()<P>(), ...);
  return why;
}

}  // namespace

std::string strategy_refusal(const Context& context, const CqStrategy& strategy) {
  return refusal_of(RegisteredPollers{}, context, strategy);
}

void prepare_strategy(CompletionQueue& cq, const Context& context, const CqStrategy& strategy) {
  prepare_of(RegisteredPollers{}, cq, context, strategy);
}

}  // namespace rdmabench
