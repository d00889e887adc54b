#include "simulated_target.h"

#include <algorithm>

#include "search/window_resolution.h"

namespace rdmabench::testing {

namespace {

std::vector<std::string> powers_of_two(uint64_t from, uint64_t to) {
  std::vector<std::string> out;
  for (uint64_t v = from; v <= to; v *= 2)
    out.push_back(v >= uint64_t{1024} * 1024 ? std::to_string(v >> 20) + "M"
                  : v >= 1024                ? std::to_string(v >> 10) + "K"
                                             : std::to_string(v));
  return out;
}

// Up to +-1 %, fixed by the point, the repetition and the counter.
double noise(const Point& point, unsigned repetition, const std::string& counter) {
  const size_t h =
      std::hash<std::string>{}(point_key(point) + std::to_string(repetition) + counter);
  return 1.0 + (static_cast<double>(h % 2001) - 1000.0) / 100000.0;
}

double number(const Point& p, const std::string& option) {
  return static_cast<double>(ordered_value(p.at(option)));
}

}  // namespace

SearchSpace simulated_space() {
  return SearchSpace({
      {"pattern", {"send", "write", "read"}, "write", "write", false},
      {"mode", {"bw", "lat"}, "bw", "bw", false},
      {"sizes", powers_of_two(2, 1 << 20), "64K", "64K", true},
      {"qps", powers_of_two(1, 16), "1", "1", true},
      {"post-list", powers_of_two(1, 32), "1", "1", true},
      {"tx-depth", powers_of_two(16, 1024), "128", "128", true},
      {"qp-timeout", {"0", "1", "4", "8", "14", "18"}, "14", "14", true},
      {"cq", {"busy", "event"}, "busy", "busy", false},
      {"bidir", {"off", "on"}, "off", "off", false, true},
  });
}

Counters SimulatedTarget::model(const Point& p, unsigned rep, bool first) const {
  const double size = number(p, "sizes"), qps = number(p, "qps");
  const double link = planted_.slow_bursty_link ? 40e6 : 1.25e9,
               per_msg_s = 1e-6 / std::pow(number(p, "post-list"), 0.3);
  double bw = size / (per_msg_s + size / link) * std::pow(std::min(qps, 4.0), 0.1) *
              (1 - 8 / number(p, "tx-depth")) * (p.at("bidir") == "on" ? 1.8 : 1.0);
  double cpu = 0.5 + 0.1 * std::log2(size) + (p.at("cq") == "event" ? 1.0 : 0.0);
  // In lat mode busy polling spins through each round trip (CPU) and an event CQ wakes up
  // (latency, below): each has what it pays for.
  const bool lat = p.at("mode") == "lat", events = p.at("cq") == "event";
  if (lat && !events) cpu += 2;
  if (lat && events && planted_.events_spin_in_lat) cpu = 1.5 * (cpu + 1);
  if (planted_.bandwidth_cliff && size >= 65536) bw *= 0.5;
  if (planted_.qp_drop && p.at("pattern") == "send" && qps >= 8) bw *= 0.6;
  if (planted_.read_qp_drop && p.at("pattern") == "read" && qps >= 8) bw *= 0.6;
  if (planted_.cpu_ramp) cpu *= std::pow(3.0, std::clamp(std::log2(size) - 10, 0.0, 5.0) / 5);
  if (planted_.cpu_step && p.at("cq") == "event" && size >= 16384) cpu *= 3;
  if (planted_.one_off_at_16_qps && first && qps == 16) bw *= 0.6;
  if (planted_.run_length_artefact && !length_.timed_window()) {
    const double n = static_cast<double>(run_length_at(p, length_).iterations);
    bw *= n / (n + 8);
  }
  if (planted_.read_bidir_qp_drop && p.at("pattern") == "read" && p.at("bidir") == "on" && qps >= 8)
    bw *= 0.6;
  double p50 = 2 + size / link * 1e6;
  if (lat && events) p50 += 3;
  if (planted_.lat_events_small_slow && p.at("mode") == "lat" && p.at("cq") == "event" &&
      size <= 1024)
    p50 += 50;
  Counters c = {{"bytes_per_second", bw},
                {"msgs_per_second", bw / size},
                {"lat_p50_us", p50},
                {"lat_p99_us", p50 * 1.3},
                {"client_cpu_us_per_msg", cpu},
                {"server_cpu_us_per_msg", cpu * 0.8}};
  for (auto& [name, value] : c) value *= noise(p, rep, name);
  if (length_.timed_window()) count_window(p, size, c);
  c["wire_retransmissions"] = planted_.resends && p.at("qp-timeout") == "1" ? 50
                              : planted_.resends_everywhere                 ? 20
                                                                            : 0;
  return c;
}

void SimulatedTarget::count_window(const Point& p, double size, Counters& c) const {
  const double window = static_cast<double>(length_.duration_ns) * 1e-9;
  double msgs = c["bytes_per_second"] / size * window;
  if (planted_.slow_bursty_link) {
    const double burst = static_cast<double>(most_in_flight(p));
    const double phase = static_cast<double>(std::hash<std::string>{}(point_key(p)) % 1000) / 1000;
    msgs = burst * std::floor(msgs / burst + phase);
    c["bytes_per_second"] = msgs * size / window;
    c["msgs_per_second"] = msgs / window;
  }
  c["msgs"] = msgs;
  c["window_s"] = window;
}

bool SimulatedTarget::accepts(const Point& point) const {
  return !planted_.reads_only_at_8 || point.at("pattern") != "read" || point.at("sizes") == "8";
}

Observation SimulatedTarget::measure(const Point& point, unsigned repetitions) {
  if (!SimulatedTarget::accepts(point))  // its own rule, not a question asked of it
    return Observation{{}, "--pattern read: reads work on 8 bytes", 2};
  Observation o;
  const bool first = measured_[point_key(point)]++ == 0;
  for (unsigned r = 0; r < repetitions; ++r) o.runs.push_back(model(point, r, first));
  seconds_ += 0.5 + repetitions;
  return o;
}

}  // namespace rdmabench::testing
