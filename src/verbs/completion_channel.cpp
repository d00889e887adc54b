#include "verbs/completion_channel.h"

#include <fcntl.h>
#include <poll.h>

#include "verbs/error.h"

namespace rdmabench {

CompletionChannel::CompletionChannel(const Context& context)
    : channel_(check_ptr(ibv_create_comp_channel(context.native()), "ibv_create_comp_channel")) {
  const int flags = fcntl(channel_->fd, F_GETFL);
  check_call(fcntl(channel_->fd, F_SETFL, flags | O_NONBLOCK) < 0 ? -1 : 0, "fcntl(O_NONBLOCK)");
}

CompletionChannel::~CompletionChannel() {
  if (channel_ != nullptr) ibv_destroy_comp_channel(channel_);
}

bool CompletionChannel::wait(std::chrono::milliseconds timeout) {
  pollfd pfd{channel_->fd, POLLIN, 0};
  const int ready = poll(&pfd, 1, static_cast<int>(timeout.count()));
  if (ready < 0) {
    if (errno == EINTR) return false;
    throw VerbsError("poll(completion channel)", errno, {}, ExitCode::kRuntime);
  }
  if (ready == 0) return false;
  ibv_cq* cq = nullptr;
  void* cq_context = nullptr;
  if (ibv_get_cq_event(channel_, &cq, &cq_context) != 0) {
    if (errno == EAGAIN) return false;
    throw VerbsError("ibv_get_cq_event", errno, {}, ExitCode::kRuntime);
  }
  return true;
}

}  // namespace rdmabench
