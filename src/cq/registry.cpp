#include "cq/registry.h"

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

}  // namespace

void prepare_strategy(CompletionQueue& cq, const Context& context, const CqStrategy& strategy) {
  prepare_of(RegisteredPollers{}, cq, context, strategy);
}

}  // namespace rdmabench
