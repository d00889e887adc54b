#include "verbs/async_event.h"

#include <cerrno>
#include <cstdio>

#include "core/nonblocking.h"
#include "verbs/verbs_error.h"

namespace rdmabench {

bool fatal_async_event(ibv_event_type type) noexcept {
  switch (type) {
    case IBV_EVENT_PORT_ERR:
    case IBV_EVENT_QP_FATAL:
    case IBV_EVENT_QP_REQ_ERR:
    case IBV_EVENT_QP_ACCESS_ERR:
    case IBV_EVENT_CQ_ERR:
    case IBV_EVENT_SRQ_ERR:
    case IBV_EVENT_PATH_MIG_ERR:
    case IBV_EVENT_DEVICE_FATAL:
      return true;
    default:
      return false;
  }
}

std::string async_event_name(ibv_event_type type) {
  // ibv_event_type_str says "local work queue catastrophic error"; reports name the constant.
  static constexpr std::pair<ibv_event_type, const char*> kNames[] = {
      {IBV_EVENT_CQ_ERR, "IBV_EVENT_CQ_ERR"},
      {IBV_EVENT_QP_FATAL, "IBV_EVENT_QP_FATAL"},
      {IBV_EVENT_QP_REQ_ERR, "IBV_EVENT_QP_REQ_ERR"},
      {IBV_EVENT_QP_ACCESS_ERR, "IBV_EVENT_QP_ACCESS_ERR"},
      {IBV_EVENT_COMM_EST, "IBV_EVENT_COMM_EST"},
      {IBV_EVENT_SQ_DRAINED, "IBV_EVENT_SQ_DRAINED"},
      {IBV_EVENT_PATH_MIG, "IBV_EVENT_PATH_MIG"},
      {IBV_EVENT_PATH_MIG_ERR, "IBV_EVENT_PATH_MIG_ERR"},
      {IBV_EVENT_DEVICE_FATAL, "IBV_EVENT_DEVICE_FATAL"},
      {IBV_EVENT_PORT_ACTIVE, "IBV_EVENT_PORT_ACTIVE"},
      {IBV_EVENT_PORT_ERR, "IBV_EVENT_PORT_ERR"},
      {IBV_EVENT_LID_CHANGE, "IBV_EVENT_LID_CHANGE"},
      {IBV_EVENT_PKEY_CHANGE, "IBV_EVENT_PKEY_CHANGE"},
      {IBV_EVENT_SM_CHANGE, "IBV_EVENT_SM_CHANGE"},
      {IBV_EVENT_SRQ_ERR, "IBV_EVENT_SRQ_ERR"},
      {IBV_EVENT_SRQ_LIMIT_REACHED, "IBV_EVENT_SRQ_LIMIT_REACHED"},
      {IBV_EVENT_QP_LAST_WQE_REACHED, "IBV_EVENT_QP_LAST_WQE_REACHED"},
      {IBV_EVENT_CLIENT_REREGISTER, "IBV_EVENT_CLIENT_REREGISTER"},
      {IBV_EVENT_GID_CHANGE, "IBV_EVENT_GID_CHANGE"},
      {IBV_EVENT_WQ_FATAL, "IBV_EVENT_WQ_FATAL"},
  };
  for (const auto& [t, name] : kNames)
    if (t == type) return name;
  return "IBV_EVENT_" + std::to_string(static_cast<int>(type));
}

namespace {
std::string hex(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%x", value);
  return text;
}

// Which member of ibv_async_event's element union is valid (ibv_get_async_event(3)).
std::string element_of(const ibv_async_event& e) {
  switch (e.event_type) {
    case IBV_EVENT_PORT_ACTIVE:
    case IBV_EVENT_PORT_ERR:
    case IBV_EVENT_LID_CHANGE:
    case IBV_EVENT_PKEY_CHANGE:
    case IBV_EVENT_SM_CHANGE:
    case IBV_EVENT_CLIENT_REREGISTER:
    case IBV_EVENT_GID_CHANGE:
      return "port " + std::to_string(e.element.port_num);
    case IBV_EVENT_CQ_ERR:
      return "CQ";
    case IBV_EVENT_SRQ_ERR:
    case IBV_EVENT_SRQ_LIMIT_REACHED:
      return "SRQ";
    case IBV_EVENT_DEVICE_FATAL:
      return "device";
    case IBV_EVENT_WQ_FATAL:
      return "WQ";
    default:  // the QP events
      return e.element.qp != nullptr ? "QP " + hex(e.element.qp->qp_num) : "QP";
  }
}
}  // namespace

AsyncEvent describe_async_event(const ibv_async_event& event) {
  return {async_event_name(event.event_type), element_of(event),
          fatal_async_event(event.event_type)};
}

void make_async_events_nonblocking(const Context& context) {
  set_nonblocking(context.native()->async_fd, "the device's asynchronous event channel");
}

int async_event_fd(const Context& context) noexcept {
  return context.native()->async_fd;
}

std::optional<AsyncEvent> next_async_event(const Context& context) {
  ibv_async_event event{};
  if (ibv_get_async_event(context.native(), &event) != 0) {
    if (errno == EAGAIN || errno == EWOULDBLOCK) return std::nullopt;
    throw VerbsError("ibv_get_async_event", errno, {}, ExitCode::kRuntime);
  }
  AsyncEvent out = describe_async_event(event);
  ibv_ack_async_event(&event);
  return out;
}

}  // namespace rdmabench
