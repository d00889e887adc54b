// What the wire saw, in a result row: each side's port counter deltas over the run (raw and per
// message), whether the wire carried the payload the row claims, and which counters mean
// trouble: retransmissions, sequence errors, RNR NAKs, congestion. The names differ by driver
// (rxe, mlx5, the IB port counters); this is the one list of those the engine knows, and the
// results carry it (device_alarms_json) for the tools.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "session/run_source.h"

namespace rdmabench {

struct DeviceAlarm {
  std::string_view counter;  // a port counter's name (host/port_counters.h): hw_duplicate_request
  std::string_view means;    // retransmission, sequence, rnr, congestion
  bool flags_row;            // the table flags a row where it moved (congestion is only shown)
  // One count per time the requester had to resend (its retry timer fired, or a sequence
  // NAK came back). The responder's counts of the same trouble (a duplicate for every
  // packet resent, an out-of-sequence packet) are consequences of these, not more of them.
  bool resend_episode = false;
};

const std::vector<DeviceAlarm>& device_alarms();
nlohmann::json device_alarms_json();

// client_dev_<name> and server_dev_<name> (what moved), each also _per_msg over `all_msgs`;
// wire_retransmissions, wire_sequence_errors, wire_rnr_naks and wire_congestion_marks (each
// kind over both sides, where some counter shows it); wire_resend_episodes (both sides'
// resend_episode counters, where some exists); and when the counters allow it
// wire_bytes_per_payload_byte and wire_packets_per_msg.
void add_device_counters(std::map<std::string, double>& counters, const RunResult& r,
                         double all_msgs, uint64_t size);

// What a row's device counters say went wrong, one entry per kind that flags a row, e.g.
// "retransmission 19 (client hw_completer_retry_err 3, server hw_duplicate_request 16)".
std::vector<std::string> device_trouble(const std::map<std::string, double>& counters);

}  // namespace rdmabench
