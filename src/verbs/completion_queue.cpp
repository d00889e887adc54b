#include "verbs/completion_queue.h"

namespace rdmabench {

CompletionQueue::CompletionQueue(const Context& context, int depth, CompletionChannel* channel,
                                 int vector)
    : cq_(check_ptr(ibv_create_cq(context.native(), depth, nullptr,
                                  channel != nullptr ? channel->native() : nullptr, vector),
                    "ibv_create_cq",
                    "depth " + std::to_string(depth) + ", vector " + std::to_string(vector))) {}

void CompletionQueue::moderate(uint16_t count, uint16_t period_us) {
  ibv_modify_cq_attr attr{};
  attr.attr_mask = IBV_CQ_ATTR_MODERATE;
  attr.moderate.cq_count = count;
  attr.moderate.cq_period = period_us;
  check_call(ibv_modify_cq(cq_, &attr), "ibv_modify_cq",
             "moderation " + std::to_string(count) + "," + std::to_string(period_us),
             ExitCode::kUsage);
}

void CompletionQueue::flush_acks() noexcept {
  if (unacked_events_ > 0) ibv_ack_cq_events(cq_, unacked_events_);
  unacked_events_ = 0;
}

CompletionQueue::~CompletionQueue() {
  if (cq_ == nullptr) return;
  flush_acks();  // ibv_destroy_cq waits for every event to be acked
  if (owned_) ibv_destroy_cq(cq_);
}

}  // namespace rdmabench
