// One completion queue of an endpoint with its completion channel and the counters of what
// polling it cost. A side has one per thread (its QPs share it) or, with --cq-per-qp, one per QP.
#pragma once

#include <memory>

#include "cq/poll_target.h"
#include "cq/strategy_registry.h"
#include "verbs/completion_channel.h"
#include "verbs/completion_queue.h"
#include "verbs/context.h"

namespace rdmabench {

// The completion vector of a side's CQ number `cq` on a device with `vectors` of them: CQ k
// (thread k's, or QP k's with --cq-per-qp) on vector k mod vectors, so that threads' interrupts
// spread over the device's vectors instead of all landing on vector 0's core.
inline int completion_vector(uint32_t cq, int vectors) noexcept {
  return vectors > 1 ? static_cast<int>(cq % static_cast<uint32_t>(vectors)) : 0;
}

struct CompletionGroup {
  CompletionGroup(const Context& context, int depth, const CqStrategy& strategy, int vector)
      : channel(std::make_unique<CompletionChannel>(context)),  // never armed by busy
        cq(std::make_unique<CompletionQueue>(context, depth, channel.get(), vector)),
        vector(vector) {
    prepare_strategy(*cq, context, strategy);
  }

  std::unique_ptr<CompletionChannel> channel;
  std::unique_ptr<CompletionQueue> cq;  // destroyed before its channel
  int vector;                           // its completion vector
  PollCounts counts;                    // reset per run
};

}  // namespace rdmabench
