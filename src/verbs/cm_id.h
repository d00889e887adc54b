// rdma_cm: the event channel and the connection identifier (rdma_cm_id), with timeouts.
#pragma once

#include <rdma/rdma_cma.h>

#include <chrono>
#include <cstdint>
#include <string>

namespace rdmabench {

class CmEventChannel {
 public:
  CmEventChannel();
  ~CmEventChannel();
  CmEventChannel(const CmEventChannel&) = delete;
  CmEventChannel& operator=(const CmEventChannel&) = delete;

  struct Event {
    rdma_cm_event_type type;
    int status;
    rdma_cm_id* id;  // for CONNECT_REQUEST: the new connection's id
    // For CONNECT_REQUEST: the private data the peer sent (a copy; the provider may pad it).
    std::string private_data;
  };
  // Waits until an event is ready (true), or until `other_fd` is readable first (false).
  // Throws Error(kConnection) on timeout, and ("interrupted") as soon as `stop_fd` is readable.
  bool wait(std::chrono::milliseconds timeout, const char* waiting_for, int other_fd = -1,
            int stop_fd = -1);
  // Waits for the next event (and acks it). Throws Error(kConnection) on timeout and when
  // `stop_fd` becomes readable.
  Event next(std::chrono::milliseconds timeout, const char* waiting_for, int stop_fd = -1);
  // Waits for `expected`; any other event is an error naming what came instead.
  Event expect(rdma_cm_event_type expected, std::chrono::milliseconds timeout, int stop_fd = -1);

  rdma_event_channel* native() const noexcept { return channel_; }

 private:
  rdma_event_channel* channel_;
};

class CmId {
 public:
  // A new id in `port_space` (the transport's: RDMA_PS_TCP for rc).
  CmId(CmEventChannel& channel, rdma_port_space port_space);
  // Takes ownership of an id that rdma_cm created (a connection request), and moves its
  // events to `channel`.
  CmId(rdma_cm_id* adopted, CmEventChannel& channel);
  ~CmId();
  CmId(const CmId&) = delete;
  CmId& operator=(const CmId&) = delete;

  // Active side: address then route resolution, each bounded by `timeout`.
  // From `source` (a local address) when given: rdma_cm then takes the device behind it.
  void resolve(const std::string& host, uint16_t port, std::chrono::milliseconds timeout,
               const std::string& source = {});
  // Passive side: bind to host (port 0 picks a free one) and listen.
  void listen(const std::string& host, uint16_t port);
  uint16_t local_port() const;
  // After resolve, on an iWARP device: whether TCP holds the local port rdma_cm chose, so the
  // driver's own TCP socket could not bind it and connect() would fail with EADDRINUSE.
  // Always false on other fabrics, whose rdma_cm ports are not TCP's.
  bool local_port_held_by_tcp() const;

  // The QP's local ACK timeout exponent (0..31, 0: no retransmission timer), applied when
  // rdma_cm moves the QP to RTS: set it before connect or accept.
  void set_ack_timeout(uint8_t exponent);
  // The type of service of the paths this id resolves (RDMA_OPTION_ID_TOS): on RoCE the GRH
  // traffic class, so the IP header's DSCP and ECN byte. Before resolve() to take effect.
  void set_type_of_service(uint8_t tos);
  // Each waits for ESTABLISHED within `timeout`, ended at once when `stop_fd` is readable.
  void connect(const rdma_conn_param& param, std::chrono::milliseconds timeout, int stop_fd = -1);
  // Refuses a connection request (this id is one), sending no private data.
  void reject();
  void accept(const rdma_conn_param& param, std::chrono::milliseconds timeout, int stop_fd = -1);

  // The device rdma_cm bound this id to (after resolve, or on a connection request).
  ibv_context* verbs() const noexcept { return id_->verbs; }
  uint8_t port_num() const noexcept { return id_->port_num; }
  rdma_cm_id* native() const noexcept { return id_; }

 private:
  rdma_cm_id* id_ = nullptr;
  CmEventChannel& channel_;
  bool connected_ = false;
};

}  // namespace rdmabench
