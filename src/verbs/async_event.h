// A device's asynchronous events (ibv_get_async_event): a port that goes down, a QP or CQ
// that enters the error state, a device that dies; and the informational ones (a port
// active again, a path migrated, a GID table change). What each one means for a run.
#pragma once

#include <infiniband/verbs.h>

#include <optional>
#include <string>

#include "verbs/context.h"

namespace rdmabench {

struct AsyncEvent {
  std::string name;     // "IBV_EVENT_PORT_ERR"
  std::string element;  // what it concerns: "port 1", "QP 0x11", "CQ", "SRQ", "device"
  bool fatal = false;   // the run cannot go on (fatal_async_event)
  std::string text() const { return name + " (" + element + ")"; }
};

// Events that end a run: the port down, a QP, CQ or SRQ in error, path migration failed,
// the device dead. The rest only say something changed.
bool fatal_async_event(ibv_event_type type) noexcept;
// "IBV_EVENT_PORT_ERR", the libibverbs name; "IBV_EVENT_<n>" for one it does not know.
std::string async_event_name(ibv_event_type type);
// The event as rdmabench reports it, from what ibv_get_async_event filled in.
AsyncEvent describe_async_event(const ibv_async_event& event);

// Makes `context`'s asynchronous event channel non-blocking, so that reading it never waits.
void make_async_events_nonblocking(const Context& context);
// The device's asynchronous event descriptor, to wait on (readable when an event is queued).
int async_event_fd(const Context& context) noexcept;
// The next queued event, acknowledged; none when the queue is empty. Needs the channel
// non-blocking (make_async_events_nonblocking). Throws VerbsError when reading fails.
std::optional<AsyncEvent> next_async_event(const Context& context);

}  // namespace rdmabench
