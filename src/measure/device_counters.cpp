#include "measure/device_counters.h"

namespace rdmabench {

namespace {

// clang-format off
const std::vector<DeviceAlarm> kAlarms = {
    // rxe (drivers/infiniband/sw/rxe/rxe_hw_counters.c)
    {"hw_completer_retry_err", "retransmission", true, true},  // the requester's retry timer fired
    {"hw_retry_exceeded_err", "retransmission", true},
    {"hw_duplicate_request", "retransmission", true},     // the responder saw a packet again
    {"hw_out_of_seq_request", "sequence", true},
    {"hw_rcvd_seq_err", "sequence", true, true},  // the requester got a sequence NAK
    {"hw_rcvd_rnr_err", "rnr", true},
    {"hw_send_rnr_err", "rnr", true},
    {"hw_retry_rnr_exceeded_err", "rnr", true},
    // mlx5 (Documentation of mlx5 hw_counters)
    {"hw_local_ack_timeout_err", "retransmission", true, true},
    {"hw_req_transport_retries_exceeded", "retransmission", true},
    {"hw_out_of_sequence", "sequence", true},
    {"hw_packet_seq_err", "sequence", true, true},
    {"hw_implied_nak_seq_err", "sequence", true, true},
    {"hw_rnr_nak_retry_err", "rnr", true},
    {"hw_req_rnr_retries_exceeded", "rnr", true},
    {"hw_np_cnp_sent", "congestion", false},
    {"hw_rp_cnp_handled", "congestion", false},
    {"hw_np_ecn_marked_roce_packets", "congestion", false},
};
// clang-format on

// A side's transmitted bytes and packets, from the best counter it has (-1: none).
double wire_tx_bytes(const std::map<std::string, uint64_t>& d) {
  if (auto it = d.find("port_port_xmit_data"); it != d.end())
    return 4.0 * static_cast<double>(it->second);  // 4-byte words (IB spec)
  if (auto it = d.find("netdev_tx_bytes"); it != d.end()) return static_cast<double>(it->second);
  return -1;
}

double wire_tx_packets(const std::map<std::string, uint64_t>& d) {
  for (const char* name : {"hw_sent_pkts", "port_port_xmit_packets", "netdev_tx_packets"})
    if (auto it = d.find(name); it != d.end()) return static_cast<double>(it->second);
  return -1;
}

// The row's counter that sums an alarm kind over both sides.
std::string kind_counter(std::string_view means) {
  return means == "retransmission" ? "wire_retransmissions"
         : means == "sequence"     ? "wire_sequence_errors"
         : means == "rnr"          ? "wire_rnr_naks"
                                   : "wire_congestion_marks";
}

using Reading = std::map<std::string, uint64_t>;

// The readings a row counts: each side's, or with one port (RunResult::one_port) the
// client's alone, which counted both sides' traffic.
std::vector<const Reading*> readings_of(const RunResult& r) {
  if (r.one_port) return {&r.client.device_counters};
  return {&r.client.device_counters, &r.server.device_counters};
}

// wire_retransmissions, ...: each kind summed over the readings, where one of them has a
// counter of that kind (a kind no counter shows is left out, not reported as 0).
void add_kinds(std::map<std::string, double>& c, const RunResult& r) {
  for (const DeviceAlarm& a : kAlarms)
    for (const Reading* side : readings_of(r))
      if (const auto it = side->find(std::string(a.counter)); it != side->end()) {
        c[kind_counter(a.means)] += static_cast<double>(it->second);
        if (a.resend_episode) c["wire_resend_episodes"] += static_cast<double>(it->second);
      }
}

void add_side(std::map<std::string, double>& c, const std::string& side,
              const std::map<std::string, uint64_t>& deltas, double all_msgs) {
  for (const auto& [name, value] : deltas) {
    c[side + "_dev_" + name] = static_cast<double>(value);
    c[side + "_dev_" + name + "_per_msg"] = static_cast<double>(value) / all_msgs;
  }
}

}  // namespace

const std::vector<DeviceAlarm>& device_alarms() {
  return kAlarms;
}

nlohmann::json device_alarms_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const DeviceAlarm& a : kAlarms)
    out.push_back({{"counter", a.counter},
                   {"means", a.means},
                   {"flags_row", a.flags_row},
                   {"resend_episode", a.resend_episode}});
  return out;
}

void add_device_counters(std::map<std::string, double>& c, const RunResult& r, double all_msgs,
                         uint64_t size) {
  add_side(c, "client", r.client.device_counters, all_msgs);
  if (r.one_port)
    c["wire_one_port"] = 1;
  else
    add_side(c, "server", r.server.device_counters, all_msgs);
  add_kinds(c, r);
  double bytes = 0, packets = 0;  // over the readings; below 0 once one has no such counter
  for (const Reading* side : readings_of(r)) {
    const double b = wire_tx_bytes(*side), p = wire_tx_packets(*side);
    bytes = bytes < 0 || b < 0 ? -1 : bytes + b;
    packets = packets < 0 || p < 0 ? -1 : packets + p;
  }
  const double payload = all_msgs * static_cast<double>(size);
  if (bytes >= 0 && payload > 0) c["wire_bytes_per_payload_byte"] = bytes / payload;
  if (packets >= 0) c["wire_packets_per_msg"] = packets / all_msgs;
}

std::vector<std::string> device_trouble(const std::map<std::string, double>& counters) {
  std::map<std::string, std::pair<double, std::string>> by_kind;  // kind -> (sum, detail)
  for (const char* side : {"client", "server"}) {
    for (const DeviceAlarm& a : kAlarms) {
      if (!a.flags_row) continue;
      const auto it = counters.find(std::string(side) + "_dev_" + std::string(a.counter));
      if (it == counters.end() || it->second <= 0) continue;
      auto& [sum, detail] = by_kind[std::string(a.means)];
      sum += it->second;
      detail += (detail.empty() ? "" : ", ") + std::string(side) + " " + std::string(a.counter) +
                " " + std::to_string(static_cast<uint64_t>(it->second));
    }
  }
  std::vector<std::string> out;
  for (const auto& [kind, found] : by_kind)
    out.push_back(kind + " " + std::to_string(static_cast<uint64_t>(found.first)) + " (" +
                  found.second + ")");
  return out;
}

}  // namespace rdmabench
