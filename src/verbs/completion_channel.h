// Completion event channel (ibv_comp_channel): its events taken without blocking (after epoll
// says the channel is readable) or in a blocking read (cq/channel_watch.h bounds its time).
#pragma once

#include <infiniband/verbs.h>

#include "verbs/context.h"

namespace rdmabench {

class CompletionChannel {
 public:
  explicit CompletionChannel(const Context& context);
  // A channel made elsewhere and destroyed there (a unit test's, beside a fake CQ): this object
  // never destroys it.
  static CompletionChannel borrowing(ibv_comp_channel* channel) {
    return CompletionChannel(channel);
  }
  ~CompletionChannel();
  CompletionChannel(const CompletionChannel&) = delete;
  CompletionChannel& operator=(const CompletionChannel&) = delete;

  // How the channel's fd reads: blocking (take_event_blocking) or not (try_take_event, the
  // default). Once per run, by the strategy that waits on it; a system call only on a change.
  void read_blocking(bool blocking);

  // Blocks in read(2) until an event arrives: takes it with ibv_get_cq_event and returns the CQ
  // it is for (the caller acks it through that CQ's CompletionQueue; several CQs may share one
  // channel); nullptr when a signal interrupted the read. One system call an event. Needs
  // read_blocking(true).
  ibv_cq* take_event_blocking();

  // Without blocking: takes an event if one is there and returns its CQ, else nullptr. For
  // callers that wait on fd() themselves (epoll).
  ibv_cq* try_take_event();
  int fd() const noexcept { return channel_->fd; }

  ibv_comp_channel* native() const noexcept { return channel_; }

 private:
  explicit CompletionChannel(ibv_comp_channel* borrowed) : channel_(borrowed), owned_(false) {}
  ibv_comp_channel* channel_;
  bool owned_ = true;
  bool blocking_ = false;
};

}  // namespace rdmabench
