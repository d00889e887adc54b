// Completion event channel (ibv_comp_channel), waited on with a timeout.
#pragma once

#include <infiniband/verbs.h>

#include <chrono>

#include "verbs/context.h"

namespace rdmabench {

class CompletionChannel {
 public:
  explicit CompletionChannel(const Context& context);
  // A channel made elsewhere and destroyed there (a unit test's, beside a fake CQ whose
  // strategy never blocks on it): this object never destroys it.
  static CompletionChannel borrowing(ibv_comp_channel* channel) {
    return CompletionChannel(channel);
  }
  ~CompletionChannel();
  CompletionChannel(const CompletionChannel&) = delete;
  CompletionChannel& operator=(const CompletionChannel&) = delete;

  // Blocks until a CQ event arrives or the timeout passes. On an event, takes it with
  // ibv_get_cq_event and returns the CQ it is for (the caller acks it through that CQ's
  // CompletionQueue; several CQs may share one channel); nullptr when the timeout passed, or,
  // with `interrupt_fd` >= 0, as soon as that descriptor is readable.
  ibv_cq* wait(std::chrono::milliseconds timeout, int interrupt_fd = -1);

  // Without blocking: takes an event if one is there (the channel's fd is non-blocking) and
  // returns its CQ, else nullptr. For callers that wait on fd() themselves (epoll).
  ibv_cq* try_take_event();
  int fd() const noexcept { return channel_->fd; }

  ibv_comp_channel* native() const noexcept { return channel_; }

 private:
  explicit CompletionChannel(ibv_comp_channel* borrowed) : channel_(borrowed), owned_(false) {}
  ibv_comp_channel* channel_;
  bool owned_ = true;
};

}  // namespace rdmabench
