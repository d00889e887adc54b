// One completion queue of an endpoint with its completion channel and the counters of what
// polling it cost. A side has one per thread (its QPs share it) or, with --cq-per-qp, one per QP.
#pragma once

#include <memory>
#include <span>

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
  // With `shared_channel`, the CQ is bound to that channel (which outlives the group: the
  // lane's, whose CQs a poller then waits on as one); else to a channel of its own.
  CompletionGroup(const Context& context, int depth, const CqStrategy& strategy, int vector,
                  CompletionChannel* shared_channel = nullptr)
      : own_channel(shared_channel != nullptr ? nullptr
                                              : std::make_unique<CompletionChannel>(context)),
        channel(shared_channel != nullptr ? shared_channel : own_channel.get()),
        cq(std::make_unique<CompletionQueue>(context, depth, channel, vector)),
        vector(vector) {
    prepare_strategy(*cq, context, strategy);
  }

  // The CQ as the one a PollTarget polls (PollTarget::cqs).
  std::span<CompletionQueue* const> queues() const noexcept { return {&polled_, 1}; }

  std::unique_ptr<CompletionChannel> own_channel;  // none when shared; never armed by busy
  CompletionChannel* channel;
  std::unique_ptr<CompletionQueue> cq;  // destroyed before its channel
  int vector;                           // its completion vector
  PollCounts counts;                    // reset per run

 private:
  CompletionQueue* polled_ = cq.get();
};

}  // namespace rdmabench
