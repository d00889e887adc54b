#include "verbs/completion_channel.h"

#include "core/nonblocking.h"
#include "core/wait_readable.h"
#include "verbs/verbs_error.h"

namespace rdmabench {

CompletionChannel::CompletionChannel(const Context& context)
    : channel_(check_ptr(ibv_create_comp_channel(context.native()), "ibv_create_comp_channel")) {
  try {
    set_nonblocking(channel_->fd, "the completion channel");
  } catch (...) {
    ibv_destroy_comp_channel(channel_);  // the destructor does not run for a failed constructor
    throw;
  }
}

CompletionChannel::~CompletionChannel() {
  if (channel_ != nullptr && owned_) ibv_destroy_comp_channel(channel_);
}

ibv_cq* CompletionChannel::try_take_event() {
  ibv_cq* cq = nullptr;
  void* cq_context = nullptr;
  if (ibv_get_cq_event(channel_, &cq, &cq_context) == 0) return cq;
  if (errno != EAGAIN && errno != EINTR)
    throw VerbsError("ibv_get_cq_event", errno, {}, ExitCode::kRuntime);
  return nullptr;
}

ibv_cq* CompletionChannel::wait(std::chrono::milliseconds timeout, int interrupt_fd) {
  for (;;) {
    if (!wait_readable(channel_->fd, timeout, "poll(completion channel)", interrupt_fd))
      return nullptr;
    // Readable but nothing to take (a spurious wake-up, or a signal): wait again.
    if (ibv_cq* cq = try_take_event(); cq != nullptr) return cq;
  }
}

}  // namespace rdmabench
