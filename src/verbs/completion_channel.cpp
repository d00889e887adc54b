#include "verbs/completion_channel.h"

#include <cerrno>

#include "core/nonblocking.h"
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

void CompletionChannel::read_blocking(bool blocking) {
  if (blocking == blocking_ && owned_) return;  // a borrowed channel's mode is not known
  set_nonblocking(channel_->fd, "the completion channel", !blocking);
  blocking_ = blocking;
}

ibv_cq* CompletionChannel::take_event_blocking() {
  ibv_cq* cq = nullptr;
  void* cq_context = nullptr;
  errno = 0;
  if (ibv_get_cq_event(channel_, &cq, &cq_context) == 0) return cq;
  if (errno == EINTR) return nullptr;
  // A short read sets no errno: said as an I/O error.
  throw VerbsError("ibv_get_cq_event", errno != 0 ? errno : EIO, {}, ExitCode::kRuntime);
}

ibv_cq* CompletionChannel::try_take_event() {
  ibv_cq* cq = nullptr;
  void* cq_context = nullptr;
  if (ibv_get_cq_event(channel_, &cq, &cq_context) == 0) return cq;
  if (errno != EAGAIN && errno != EINTR)
    throw VerbsError("ibv_get_cq_event", errno, {}, ExitCode::kRuntime);
  return nullptr;
}

}  // namespace rdmabench
