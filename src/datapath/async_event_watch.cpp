#include "datapath/async_event_watch.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>

#include "core/system_error.h"

namespace rdmabench {

AsyncEventWatch::AsyncEventWatch(const Context& context, std::function<void()> on_fatal)
    : context_(context),
      on_fatal_(std::move(on_fatal)),
      done_fd_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
  if (done_fd_ < 0) throw SystemError("eventfd", errno, "the asynchronous event watch");
  make_async_events_nonblocking(context_);
  while (next_async_event(context_)) {
  }  // an earlier user's, of a shared context
  thread_ = std::thread([this] { watch(); });
}

AsyncEventWatch::~AsyncEventWatch() {
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = write(done_fd_, &one, sizeof one);
  thread_.join();
  close(done_fd_);
}

void AsyncEventWatch::begin_run() {
  const std::lock_guard<std::mutex> hold(lock_);
  run_events_.clear();
}

std::optional<AsyncEvent> AsyncEventWatch::fatal() const {
  const std::lock_guard<std::mutex> hold(lock_);
  return fatal_;
}

std::vector<std::string> AsyncEventWatch::run_event_texts(size_t most, size_t longest) const {
  const std::lock_guard<std::mutex> hold(lock_);
  std::vector<std::string> texts;
  for (const AsyncEvent& e : run_events_)
    if (texts.size() < most) texts.push_back(e.text().substr(0, longest));
  return texts;
}

void AsyncEventWatch::take_queued() {
  while (auto event = next_async_event(context_)) {
    bool first_fatal = false;
    {
      const std::lock_guard<std::mutex> hold(lock_);
      first_fatal = event->fatal && !fatal_;
      if (first_fatal) fatal_ = *event;  // kept before the QPs fail: whoever wakes finds it
      run_events_.push_back(std::move(*event));
    }
    if (first_fatal) on_fatal_();
  }
}

void AsyncEventWatch::watch() {
  pollfd fds[2] = {{done_fd_, POLLIN, 0}, {async_event_fd(context_), POLLIN, 0}};
  try {
    for (;;) {
      if (poll(fds, 2, -1) < 0) {
        if (errno == EINTR) continue;
        return;  // cannot watch; a run still ends at its --timeout
      }
      if (fds[0].revents != 0) return;
      if (fds[1].revents != 0) take_queued();
    }
  } catch (const Error&) {
    // Reading the channel failed: the endpoint goes on unwatched, as before there was a watch.
  }
}

std::string receiver_advice(bool iwarp, bool receives) {
  if (!iwarp || !receives) return {};
  return ": on iWARP a send that finds no receive posted ends the connection (no RNR retry), "
         "so the receiver most likely fell behind the sender: give it more receives "
         "(--rx-depth), a CPU of its own (--cpus), or pace the sender (--rate)";
}

Error device_event_error(const AsyncEvent& event, const std::string& device,
                         const std::string& benchmark, const std::string& advice) {
  const bool port = event.name == "IBV_EVENT_PORT_ERR";
  return Error(ExitCode::kDeviceEvent,
               device + ": " + event.text() + " during " + benchmark +
                   (port ? ": the port went down (is the link up? `rdmabench devices` shows its "
                           "state)"
                    : !advice.empty() ? advice
                                      : ": the device says the run cannot go on"));
}

}  // namespace rdmabench
