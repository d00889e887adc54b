// What a transport (a QP type) is: everything the queue pair, rdma_cm, the spec and the
// patterns need to know of it, stated by the transport's own file (rc.h: kRcTransport) and
// listed once in transport_list.cpp. Nothing asks which transport it is: it asks the
// description.
#pragma once

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdmabench {

struct TransportInfo {
  std::string_view name;     // "rc"
  std::string_view summary;  // one line for --help
  ibv_qp_type qp_type;
  rdma_port_space cm_port_space;  // what rdma_create_id is given for it
  bool reliable;                  // acknowledged and retransmitted (RDMA read and atomics need it)
  bool connected;  // one QP talks to one remote QP (RDMA write needs it); else each send
                   // names its destination (an address handle, QP number and Q_Key)
  // Bytes ahead of the payload in every receive buffer: room the device fills with the
  // packet's Global Routing Header (40 on UD, whether a GRH came or not; wc.byte_len counts it).
  uint32_t receive_header_bytes = 0;
  // A message is one packet: at most the path MTU (datagrams are not segmented).
  bool one_packet_messages = false;
  // Why rdma_cm cannot connect it (empty: it can): --cm auto then picks the out-of-band
  // bootstrap, and --cm rdmacm is a usage error that says this.
  std::string_view rdmacm_refusal = {};
  // The attributes each ibv_modify_qp move sets (IBV_QP_*): the queue pair fills every
  // attribute it knows, the transport says which of them it takes.
  int init_mask;  // RESET->INIT
  int rtr_mask;   // INIT->RTR
  int rts_mask;   // RTR->RTS
};

// A registered transport, by its description (compares by identity).
class Transport {
 public:
  explicit constexpr Transport(const TransportInfo& info) : info_(&info) {}
  const TransportInfo& info() const noexcept { return *info_; }
  const TransportInfo* operator->() const noexcept { return info_; }
  std::string name() const { return std::string(info_->name); }
  bool operator==(const Transport&) const = default;

 private:
  const TransportInfo* info_;
};

// Every registered transport, in registration order; the first is the default.
const std::vector<Transport>& registered_transports();
std::optional<Transport> parse_transport(const std::string& name);
std::string transport_names();  // "rc"
Transport default_transport();

}  // namespace rdmabench
