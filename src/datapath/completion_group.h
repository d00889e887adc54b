// One completion queue of an endpoint with its completion channel and the counters of what
// polling it cost. A side has one per thread (its QPs share it) or, with --cq-per-qp, one per QP.
#pragma once

#include <memory>

#include "cq/poll_target.h"
#include "cq/registry.h"
#include "verbs/completion_channel.h"
#include "verbs/completion_queue.h"
#include "verbs/context.h"

namespace rdmabench {

struct CompletionGroup {
  CompletionGroup(const Context& context, int depth, const CqStrategy& strategy)
      : channel(std::make_unique<CompletionChannel>(context)),  // never armed by busy
        cq(std::make_unique<CompletionQueue>(context, depth, channel.get())) {
    prepare_strategy(*cq, context, strategy);
  }

  std::unique_ptr<CompletionChannel> channel;
  std::unique_ptr<CompletionQueue> cq;  // destroyed before its channel
  PollCounts counts;                    // reset per run
};

}  // namespace rdmabench
