#include "verbs/completion_queue.h"

namespace rdmabench {

CompletionQueue::CompletionQueue(const Context& context, int depth, CompletionChannel* channel)
    : cq_(check_ptr(ibv_create_cq(context.native(), depth, nullptr,
                                  channel != nullptr ? channel->native() : nullptr, 0),
                    "ibv_create_cq", "depth " + std::to_string(depth))) {}

void CompletionQueue::flush_acks() noexcept {
  if (unacked_events_ > 0) ibv_ack_cq_events(cq_, unacked_events_);
  unacked_events_ = 0;
}

CompletionQueue::~CompletionQueue() {
  if (cq_ == nullptr) return;
  flush_acks();  // ibv_destroy_cq waits for every event to be acked
  ibv_destroy_cq(cq_);
}

}  // namespace rdmabench
