#include "measure/counter_catalogue.h"

#include <cctype>

#include "core/counter_name.h"

namespace rdmabench {

namespace {

constexpr Better kUp = Better::kHigher;
constexpr Better kDown = Better::kLower;
constexpr Better kNone = Better::kNeither;
constexpr CounterKind kCount = CounterKind::kCount;
constexpr CounterKind kFigure = CounterKind::kFigure;

// clang-format off
const std::vector<CounterInfo> kCatalogue = {
    {"bytes_per_second", "B/s", "", kUp, "payload bytes per second (bw: both directions with --bidir; lat: msgs_per_second x size)", kFigure},
    {"msgs_per_second", "messages/s", "", kUp, "messages per second; real_time is the time of one", kFigure},
    {"size", "B", "msg", kNone, "message size", kCount},
    {"msgs", "messages", "", kNone, "messages counted, what real_time is the time of (bw: in the window; lat: one-way messages of counted round trips, two a round trip where half_round_trip is 1, else one: see round_trips)", kCount},
    {"window_s", "s", "", kNone, "bw: the counted window of the forward direction", kFigure},
    {"reverse_window_s", "s", "", kNone, "bw --bidir: the counted window of the reverse direction", kFigure},
    {"forward_bytes_per_second", "B/s", "", kUp, "bw --bidir: client to server", kFigure},
    {"reverse_bytes_per_second", "B/s", "", kUp, "bw --bidir: server to client", kFigure},
    {"qp{qp}_msgs", "messages", "qp", kNone, "bw: messages this QP completed in the window", kCount},
    {"qp{qp}_bytes_per_second", "B/s", "qp", kUp, "bw: this QP's client-to-server share over the aggregate window", kFigure},
    {"qp{qp}_reverse_bytes_per_second", "B/s", "qp", kUp, "bw --bidir: this QP's server-to-client share", kFigure},
    {"qp{qp}_finish_s", "s", "qp", kDown, "bw by iterations: when this QP's last send completed, from the start", kFigure},
    {"sent_msgs", "messages", "", kNone, "bw over uc/ud with a receiving target: every message sent in the run, margins included", kCount},
    {"received_msgs", "messages", "", kNone, "bw over uc/ud with a receiving target: every message that arrived in the run", kCount},
    {"lost_msgs", "messages", "", kDown, "bw over uc/ud with a receiving target: sent_msgs - received_msgs", kCount},
    {"loss_fraction", "1", "", kDown, "bw over uc/ud with a receiving target: lost_msgs / sent_msgs (bandwidth and msgs count only what arrived)", kFigure},
    {"offered_rate", "round trips/s", "", kNone, "lat --rate: the offered load, every QP (0: back to back)", kCount},
    {"achieved_rate", "round trips/s", "", kUp, "lat: counted round trips over their span", kFigure},
    {"qp{qp}_round_trips", "round trips", "qp", kNone, "open-loop lat: round trips this QP counted in the window", kCount},
    {"qp{qp}_lat_p50_us", "us", "qp", kDown, "open-loop lat: this QP's latency median, from each round trip's intended start", kFigure},
    {"qp{qp}_lat_p99_us", "us", "qp", kDown, "open-loop lat: this QP's latency 99th percentile, from each round trip's intended start", kFigure},
    {"bw_peak_bytes_per_second", "B/s", "", kUp, "bw --report-every: the best interval's payload bytes per second, what the client sent over the time the interval really took (perftest's BW peak)", kFigure},
    {"offered_msgs_per_second", "messages/s", "", kNone, "bw --rate: the offered load, every QP (and both directions with --bidir); msgs_per_second is what was achieved", kFigure},
    {"lat_min_us", "us", "msg", kDown, "latency minimum", kFigure},
    {"lat_mean_us", "us", "msg", kDown, "latency mean", kFigure},
    {"lat_stddev_us", "us", "msg", kDown, "latency standard deviation", kFigure},
    {"lat_p50_us", "us", "msg", kDown, "latency median", kFigure},
    {"lat_p90_us", "us", "msg", kDown, "latency 90th percentile", kFigure},
    {"lat_p99_us", "us", "msg", kDown, "latency 99th percentile", kFigure},
    {"lat_p999_us", "us", "msg", kDown, "latency 99.9th percentile", kFigure},
    {"lat_max_us", "us", "msg", kDown, "latency maximum", kFigure},
    {"half_round_trip", "1", "", kNone, "lat: 1 when latency is half the round trip, 0 when the full one (read, atomics)", kCount},
    {"round_trips", "round trips", "", kNone, "lat: round trips counted (the table's #iters); msgs counts two one-way messages for each where half_round_trip is 1", kCount},
    {"client_cpu_us_per_msg", "us", "msg", kDown, "client CPU time (user + system) of its run", kFigure},
    {"server_cpu_us_per_msg", "us", "msg", kDown, "server CPU time (user + system) of its run", kFigure},
    {"client_vcsw_per_msg", "switches", "msg", kDown, "client voluntary context switches", kFigure},
    {"server_vcsw_per_msg", "switches", "msg", kDown, "server voluntary context switches", kFigure},
    {"client_ivcsw_per_msg", "switches", "msg", kDown, "client involuntary context switches", kFigure},
    {"server_ivcsw_per_msg", "switches", "msg", kDown, "server involuntary context switches", kFigure},
    {"client_faults_per_msg", "faults", "msg", kDown, "client page faults (minor and major)", kFigure},
    {"server_faults_per_msg", "faults", "msg", kDown, "server page faults (minor and major)", kFigure},
    {"client_wakeups_per_msg", "wakeups", "msg", kNone, "client completion events taken from its channel", kFigure},
    {"server_wakeups_per_msg", "wakeups", "msg", kNone, "server completion events taken from its channel", kFigure},
    {"client_empty_polls_per_msg", "polls", "msg", kNone, "client ibv_poll_cq calls that found nothing", kFigure},
    {"server_empty_polls_per_msg", "polls", "msg", kNone, "server ibv_poll_cq calls that found nothing", kFigure},
    {"client_thread{thread}_cpu_us_per_msg", "us", "msg", kDown, "this client thread's CPU per message of its own QPs", kFigure},
    {"server_thread{thread}_cpu_us_per_msg", "us", "msg", kDown, "this server thread's CPU per message of its own QPs", kFigure},
    {"client_thread{thread}_msgs", "messages", "thread", kNone, "messages of this client thread's QPs", kCount},
    {"server_thread{thread}_msgs", "messages", "thread", kNone, "messages of this server thread's QPs", kCount},
    {"client_dev_{name}_per_msg", "count", "msg", kNone, "port-wide: what this client port counter moved over the run, per message (other traffic on the port moves it too)", kFigure},
    {"server_dev_{name}_per_msg", "count", "msg", kNone, "port-wide: what this server port counter moved over the run, per message (other traffic on the port moves it too)", kFigure},
    {"client_dev_{name}", "count", "", kNone, "port-wide: what this client port counter moved over the run (sysfs hw_<name>, port_<name>, netdev_<name>; other traffic on the port moves it too)", kCount},
    {"server_dev_{name}", "count", "", kNone, "port-wide: what this server port counter moved over the run (sysfs hw_<name>, port_<name>, netdev_<name>; other traffic on the port moves it too)", kCount},
    {"wire_one_port", "1", "", kNone, "1 when both sides' QPs go out of one port (one host, one device: the server's path GID is in the client's port's table): the row carries the client's port reading alone, which counts both sides' traffic, and no server_dev_ counters; absent otherwise", kCount},
    {"wire_bytes_per_payload_byte", "1", "", kNone, "port-wide: both sides' transmitted bytes (port_xmit_data x 4, else the netdev's tx_bytes; with wire_one_port the one reading) over the payload of every message of the run; below 1 the counters missed traffic", kFigure},
    {"wire_retransmissions", "packets", "", kDown, "port-wide: retransmissions both sides' ports counted over the run (the counters device_alarms calls retransmission)", kCount},
    {"wire_sequence_errors", "packets", "", kDown, "port-wide: out-of-sequence packets and sequence NAKs both sides' ports counted over the run", kCount},
    {"wire_resend_episodes", "episodes", "", kDown, "port-wide: times either side's requester had to resend over the run (its retry timer fired, or a sequence NAK came back)", kCount},
    {"wire_rnr_naks", "packets", "", kDown, "port-wide: RNR NAKs sent, received and retried out, both sides, over the run", kCount},
    {"wire_congestion_marks", "packets", "", kDown, "port-wide: CNPs and ECN marks both sides' ports counted over the run", kCount},
    {"wire_packets_per_msg", "packets", "msg", kNone, "port-wide: both sides' transmitted packets (hw_sent_pkts, else port_xmit_packets, else the netdev's; with wire_one_port the one reading) per message of the run", kFigure},
    {"verified_messages", "messages", "", kNone, "--verify: messages the check run checked", kCount},
    {"verify_errors", "errors", "", kDown, "--verify: corrupt bytes or messages the check run found", kCount},
    {"validated_messages", "messages", "", kNone, "--validate: messages the timed run checked as they completed, all passing", kCount},
};
// clang-format on

std::string_view to_string(Better b) {
  return b == Better::kHigher ? "higher" : b == Better::kLower ? "lower" : "neither";
}

// Does `name` fit `pattern`, whose one {placeholder} stands for a decimal index, or with {name}
// for a device counter's name?
bool fits(std::string_view pattern, std::string_view name) {
  const size_t open = pattern.find('{');
  if (open == std::string_view::npos) return pattern == name;
  const size_t close = pattern.find('}', open);
  const std::string_view head = pattern.substr(0, open), tail = pattern.substr(close + 1);
  if (name.size() <= head.size() + tail.size() || !name.starts_with(head) || !name.ends_with(tail))
    return false;
  const std::string_view part = name.substr(head.size(), name.size() - head.size() - tail.size());
  if (pattern.substr(open, close - open + 1) == "{name}") return valid_counter_name(part);
  for (char c : part)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

}  // namespace

const std::vector<CounterInfo>& counter_catalogue() {
  return kCatalogue;
}

const CounterInfo* find_counter(std::string_view name) {
  for (const CounterInfo& c : kCatalogue)
    if (fits(c.name, name)) return &c;
  return nullptr;
}

nlohmann::json counter_catalogue_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const CounterInfo& c : kCatalogue)
    out.push_back({{"name", c.name},
                   {"unit", c.unit},
                   {"per", c.per},
                   {"better", to_string(c.better)},
                   {"description", c.description},
                   {"integer", c.kind == CounterKind::kCount}});
  return out;
}

}  // namespace rdmabench
