#include "verbs/cm_id.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <poll.h>

#include <algorithm>
#include <cstring>

#include "core/nonblocking.h"
#include "core/tcp_port_probe.h"
#include "core/wait_readable.h"
#include "verbs/context.h"
#include "verbs/verbs_error.h"

namespace rdmabench {

namespace {
sockaddr_storage to_sockaddr(const std::string& host, uint16_t port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int rc = getaddrinfo(host.empty() ? nullptr : host.c_str(), std::to_string(port).c_str(),
                             &hints, &found);
  if (rc != 0 || found == nullptr)
    throw Error(ExitCode::kConnection, "cannot resolve '" + host + "': " + gai_strerror(rc));
  sockaddr_storage out{};
  std::memcpy(&out, found->ai_addr, found->ai_addrlen);
  freeaddrinfo(found);
  return out;
}

int ms(std::chrono::milliseconds t) {
  return static_cast<int>(t.count());
}
}  // namespace

CmEventChannel::CmEventChannel()
    : channel_(check_ptr(rdma_create_event_channel(), "rdma_create_event_channel")) {
  try {
    set_nonblocking(channel_->fd, "the rdma_cm event channel");
  } catch (...) {
    rdma_destroy_event_channel(channel_);  // the destructor does not run for a failed constructor
    throw;
  }
}

CmEventChannel::~CmEventChannel() {
  rdma_destroy_event_channel(channel_);
}

namespace {

Error cm_timeout(std::chrono::milliseconds timeout, const char* waiting_for) {
  return Error(ExitCode::kConnection, std::string("rdma_cm: timed out after ") +
                                          std::to_string(timeout.count()) + " ms waiting for " +
                                          waiting_for + " (see --timeout)");
}

}  // namespace

namespace {

// What a failed poll of the channel names (the stop fd before the channel, the channel before
// the other fd).
constexpr const char* kPollWhat = "poll(rdma_cm channel)";

Error interrupted() {
  return Error(ExitCode::kConnection, "interrupted");
}

}  // namespace

bool CmEventChannel::wait(std::chrono::milliseconds timeout, const char* waiting_for, int other_fd,
                          int stop_fd) {
  const int first = first_readable({stop_fd, channel_->fd, other_fd}, timeout, kPollWhat);
  if (first >= 0 && first == stop_fd) throw interrupted();
  if (first >= 0) return first == channel_->fd;
  throw cm_timeout(timeout, waiting_for);
}

CmEventChannel::Event CmEventChannel::next(std::chrono::milliseconds timeout,
                                           const char* waiting_for, int stop_fd) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    rdma_cm_event* event = nullptr;
    if (rdma_get_cm_event(channel_, &event) == 0) {
      Event out{event->event, event->status, event->id, {}};
      if (event->event == RDMA_CM_EVENT_CONNECT_REQUEST && event->param.conn.private_data)
        out.private_data.assign(static_cast<const char*>(event->param.conn.private_data),
                                event->param.conn.private_data_len);
      rdma_ack_cm_event(event);
      return out;
    }
    if (errno != EAGAIN && errno != EINTR)
      throw VerbsError("rdma_get_cm_event", errno, {}, ExitCode::kConnection);
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    const int first = first_readable({stop_fd, channel_->fd}, left, kPollWhat);
    if (first < 0) break;
    if (first == stop_fd) throw interrupted();
  }
  throw cm_timeout(timeout, waiting_for);
}

CmEventChannel::Event CmEventChannel::expect(rdma_cm_event_type expected,
                                             std::chrono::milliseconds timeout, int stop_fd) {
  Event e = next(timeout, rdma_event_str(expected), stop_fd);
  if (e.type != expected) {
    std::string text = std::string("rdma_cm: expected ") + rdma_event_str(expected) + ", got " +
                       rdma_event_str(e.type);
    if (e.status != 0)
      text +=
          " (status " + std::to_string(e.status) + ": " + std::strerror(std::abs(e.status)) + ")";
    if (e.type == RDMA_CM_EVENT_REJECTED) text += "; is an rdmabench server listening there?";
    throw Error(ExitCode::kConnection, text);
  }
  return e;
}

CmId::CmId(CmEventChannel& channel, rdma_port_space port_space) : channel_(channel) {
  check_call(rdma_create_id(channel.native(), &id_, nullptr, port_space), "rdma_create_id");
}

CmId::CmId(rdma_cm_id* adopted, CmEventChannel& channel) : id_(adopted), channel_(channel) {
  if (adopted->channel != channel.native())
    check_call(rdma_migrate_id(adopted, channel.native()), "rdma_migrate_id");
}

CmId::~CmId() {
  if (id_ == nullptr) return;
  if (connected_) rdma_disconnect(id_);
  rdma_destroy_id(id_);
}

void CmId::resolve(const std::string& host, uint16_t port, std::chrono::milliseconds timeout,
                   const std::string& source) {
  sockaddr_storage dst = to_sockaddr(host, port);
  sockaddr_storage src = source.empty() ? sockaddr_storage{} : to_sockaddr(source, 0);
  sockaddr* from = source.empty() ? nullptr : reinterpret_cast<sockaddr*>(&src);
  const std::string where = host + ":" + std::to_string(port);
  // Address resolution is retried in short slices: when the neighbour (ARP) entry is not
  // yet valid, the kernel may miss the update and otherwise sit out the whole timeout.
  constexpr std::chrono::milliseconds kSlice{1000};
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    const auto slice = std::clamp(left, std::chrono::milliseconds{100}, kSlice);
    if (rdma_resolve_addr(id_, from, reinterpret_cast<sockaddr*>(&dst), ms(slice)) != 0)
      throw VerbsError("rdma_resolve_addr", errno, where, ExitCode::kConnection);
    const auto event =
        channel_.next(slice + std::chrono::seconds(1), "RDMA_CM_EVENT_ADDR_RESOLVED");
    if (event.type == RDMA_CM_EVENT_ADDR_RESOLVED) break;
    const bool retry = event.type == RDMA_CM_EVENT_ADDR_ERROR &&
                       std::chrono::steady_clock::now() + std::chrono::milliseconds{100} < deadline;
    if (!retry) {
      throw Error(
          ExitCode::kConnection,
          std::string("rdma_cm: resolving ") + where + ": " + rdma_event_str(event.type) +
              (event.status != 0 ? std::string(" (") + std::strerror(std::abs(event.status)) + ")"
                                 : "") +
              " after " + std::to_string(timeout.count()) + " ms (see --timeout)");
    }
  }
  if (rdma_resolve_route(id_, ms(timeout)) != 0)
    throw VerbsError("rdma_resolve_route", errno, where, ExitCode::kConnection);
  channel_.expect(RDMA_CM_EVENT_ROUTE_RESOLVED, timeout + std::chrono::seconds(1));
}

void CmId::listen(const std::string& host, uint16_t port) {
  sockaddr_storage addr = to_sockaddr(host, port);
  check_call(rdma_bind_addr(id_, reinterpret_cast<sockaddr*>(&addr)), "rdma_bind_addr",
             host + ":" + std::to_string(port));
  check_call(rdma_listen(id_, 4), "rdma_listen");
}

uint16_t CmId::local_port() const {
  return ntohs(rdma_get_src_port(id_));
}

bool CmId::local_port_held_by_tcp() const {
  if (id_->verbs == nullptr || !Context(id_->verbs, Context::Ownership::kBorrowed).is_iwarp())
    return false;
  return tcp_port_held(*rdma_get_local_addr(id_));
}

void CmId::set_ack_timeout(uint8_t exponent) {
  if (rdma_set_option(id_, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT, &exponent,
                      sizeof exponent) != 0)
    throw VerbsError("rdma_set_option(RDMA_OPTION_ID_ACK_TIMEOUT)", errno);
}

void CmId::set_type_of_service(uint8_t tos) {
  if (rdma_set_option(id_, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &tos, sizeof tos) != 0)
    throw VerbsError("rdma_set_option(RDMA_OPTION_ID_TOS)", errno);
}

void CmId::connect(const rdma_conn_param& param, std::chrono::milliseconds timeout, int stop_fd) {
  rdma_conn_param p = param;
  if (rdma_connect(id_, &p) != 0)
    throw VerbsError("rdma_connect", errno, {}, ExitCode::kConnection);
  channel_.expect(RDMA_CM_EVENT_ESTABLISHED, timeout, stop_fd);
  connected_ = true;
}

void CmId::reject() {
  if (rdma_reject(id_, nullptr, 0) != 0)
    throw VerbsError("rdma_reject", errno, {}, ExitCode::kConnection);
}

void CmId::accept(const rdma_conn_param& param, std::chrono::milliseconds timeout, int stop_fd) {
  rdma_conn_param p = param;
  if (rdma_accept(id_, &p) != 0) throw VerbsError("rdma_accept", errno, {}, ExitCode::kConnection);
  channel_.expect(RDMA_CM_EVENT_ESTABLISHED, timeout, stop_fd);
  connected_ = true;
}

}  // namespace rdmabench
