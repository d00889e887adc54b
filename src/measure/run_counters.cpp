#include "measure/run_counters.h"

#include <algorithm>
#include <numeric>

#include "measure/device_counters.h"
#include "measure/latency_stats.h"

namespace rdmabench {

uint64_t total(std::span<const uint64_t> per_stream) {
  return std::accumulate(per_stream.begin(), per_stream.end(), uint64_t{0});
}

namespace {

double sum(const std::vector<uint64_t>& v) {
  return static_cast<double>(total(v));
}

// Messages that crossed stream i in the whole run, margins included, both directions.
double stream_messages(const TestSpec& spec, const RunResult& r, size_t i) {
  if (spec.mode == Mode::kLatency)
    return static_cast<double>(r.client.sent[i]) * (spec.half_round_trip() ? 2 : 1);
  return static_cast<double>(r.client.sent[i] + r.server.sent[i]);
}

// CPU and what a strategy costs, per message, for one side and for each of its threads (a
// thread's messages are those of its own streams).
void add_side(RunCounters& out, const TestSpec& spec, const RunResult& r, const std::string& side,
              const SideReport& rep, double all_msgs) {
  auto& c = out.counters;
  const SideFigures& f = rep.total;
  c[side + "_cpu_us_per_msg"] = static_cast<double>(f.cpu_ns) / 1000.0 / all_msgs;
  c[side + "_vcsw_per_msg"] = static_cast<double>(f.voluntary_switches) / all_msgs;
  c[side + "_ivcsw_per_msg"] = static_cast<double>(f.involuntary_switches) / all_msgs;
  c[side + "_faults_per_msg"] = static_cast<double>(f.page_faults) / all_msgs;
  c[side + "_wakeups_per_msg"] = static_cast<double>(f.wakeups) / all_msgs;
  c[side + "_empty_polls_per_msg"] = static_cast<double>(f.empty_polls) / all_msgs;
  if (spec.threads == 1) return;
  for (uint32_t t = 0; t < spec.threads; ++t) {
    double msgs = 0;
    for (uint32_t i = t; i < spec.qps; i += spec.threads) msgs += stream_messages(spec, r, i);
    const std::string th = side + "_thread" + std::to_string(t);
    c[th + "_cpu_us_per_msg"] =
        msgs > 0 ? static_cast<double>(rep.threads[t].cpu_ns) / 1000.0 / msgs : 0;
    c[th + "_msgs"] = msgs;
  }
}

// Over a transport that may lose messages, when the target counts arrivals: what the run sent
// and what arrived. Returns per stream the share of its messages that arrived (all 1 else), so
// that the window's figures count only what arrived.
std::vector<double> add_arrivals(RunCounters& out, const TestSpec& spec, const RunResult& r) {
  std::vector<double> arrived(spec.qps, 1.0);
  if (!spec.counts_arrivals()) return arrived;
  const double sent = sum(r.client.sent), received = sum(r.server.received);
  out.counters["sent_msgs"] = sent;
  out.counters["received_msgs"] = received;
  out.counters["lost_msgs"] = sent - received;
  out.counters["loss_fraction"] = sent > 0 ? (sent - received) / sent : 0;
  for (uint32_t i = 0; i < spec.qps; ++i)
    arrived[i] = r.client.sent[i] > 0 ? static_cast<double>(r.server.received[i]) /
                                            static_cast<double>(r.client.sent[i])
                                      : 0;
  return arrived;
}

// bw: each direction over its own window, and the sum; per stream over the window. Over a
// transport that may lose messages, a stream's counted sends scaled by the share that arrived.
double add_bandwidth(RunCounters& out, const TestSpec& spec, const RunResult& r) {
  auto& c = out.counters;
  const double size = static_cast<double>(spec.size);
  const double window = static_cast<double>(r.client.window_ns) * 1e-9;
  const std::vector<double> arrived = add_arrivals(out, spec, r);
  double forward_msgs = 0;
  for (uint32_t i = 0; i < spec.qps; ++i) {
    const std::string q = "qp" + std::to_string(i);
    const double msgs = static_cast<double>(r.client.counted[i]) * arrived[i];
    forward_msgs += msgs;
    c[q + "_msgs"] = msgs;
    c[q + "_bytes_per_second"] = window > 0 ? msgs * size / window : 0;
    // By iterations every QP moves the same messages: how soon each finished shows fairness.
    if (r.client.finish_ns[i] > 0)
      c[q + "_finish_s"] = static_cast<double>(r.client.finish_ns[i]) * 1e-9;
  }
  const double forward = window > 0 ? forward_msgs / window : 0;
  c["msgs"] = forward_msgs;
  c["window_s"] = window;
  if (!spec.bidir) {
    out.label = spec.transport->reliable ? "bw=unidirectional stream"
                : spec.server_receives()
                    ? "bw=unidirectional stream, what arrived (" + spec.transport.name() + ")"
                    : "bw=unidirectional stream, as sent (" + spec.transport.name() +
                          ": the target is passive, so arrivals are not counted)";
    return forward;
  }
  const double back_window = static_cast<double>(r.server.window_ns) * 1e-9;
  const double backward = back_window > 0 ? sum(r.server.counted) / back_window : 0;
  for (uint32_t i = 0; i < spec.qps; ++i)
    c["qp" + std::to_string(i) + "_reverse_bytes_per_second"] =
        back_window > 0 ? static_cast<double>(r.server.counted[i]) * size / back_window : 0;
  c["msgs"] += sum(r.server.counted);
  c["forward_bytes_per_second"] = forward * size;
  c["reverse_bytes_per_second"] = backward * size;
  c["reverse_window_s"] = back_window;
  out.label = "bw=bidirectional, sum of both directions each over its own window (overlapping)";
  return forward + backward;
}

// Open loop: thread t's connections' samples, each connection's percentiles as counters of its
// QP (qp<i>_lat_p50_us, qp<i>_lat_p99_us, qp<i>_round_trips), gathered from `from` to `to`;
// returns the samples gathered.
uint64_t gather_connections(RunCounters& out, const TestSpec& spec, uint32_t t,
                            const ClientMeasurement& m, std::span<uint64_t> samples, size_t from,
                            size_t to) {
  uint64_t n = 0;
  for (uint32_t j = 0; j < m.connections.size(); ++j) {
    const uint64_t counted = m.connections[j].counted;
    const auto first = samples.begin() + static_cast<std::ptrdiff_t>(from + j * m.connection_room);
    const LatencyStats st =
        compute_latency_stats({&*first, counted}, spec.half_round_trip() ? 0.5 : 1.0);
    const std::string qp = "qp" + std::to_string(t + j * spec.threads) + "_";
    out.counters[qp + "round_trips"] = static_cast<double>(counted);
    out.counters[qp + "lat_p50_us"] = st.p50_us;
    out.counters[qp + "lat_p99_us"] = st.p99_us;
    std::copy_n(first, counted, samples.begin() + static_cast<std::ptrdiff_t>(to + n));
    n += counted;
  }
  return n;
}

// lat: percentiles over every counted sample of every thread.
double add_latency(RunCounters& out, const TestSpec& spec, const RunResult& r,
                   std::span<uint64_t> samples) {
  auto& c = out.counters;
  const bool half = spec.half_round_trip();
  const size_t per_thread = samples.size() / spec.threads;
  uint64_t n = 0;
  double seconds = 0, span = 0;
  for (uint32_t t = 0; t < spec.threads; ++t) {
    const ClientMeasurement& m = r.client_lat[t];
    if (spec.open_loop()) {
      n += gather_connections(out, spec, t, m, samples, t * per_thread, n);
    } else {
      std::copy_n(samples.begin() + static_cast<std::ptrdiff_t>(t * per_thread), m.round_trips,
                  samples.begin() + static_cast<std::ptrdiff_t>(n));
      n += m.round_trips;
    }
    seconds = std::max(seconds, m.seconds);  // the threads ran side by side
    span = std::max(span, m.span_seconds);
  }
  // Open loop, many round trips at once: the rate the connections achieved together over the
  // span, not one after another.
  if (spec.open_loop()) seconds = span;
  const double msgs = static_cast<double>(n) * (half ? 2 : 1);
  c["msgs"] = msgs;
  c["round_trips"] = static_cast<double>(n);
  // Round trips (reads) per second, every QP's.
  c["offered_rate"] = static_cast<double>(spec.rate) * spec.qps;
  c["achieved_rate"] = span > 0 ? static_cast<double>(n) / span : 0;
  const LatencyStats st = compute_latency_stats({samples.data(), n}, half ? 0.5 : 1.0);
  c["lat_min_us"] = st.min_us;
  c["lat_mean_us"] = st.mean_us;
  c["lat_stddev_us"] = st.stddev_us;
  c["lat_p50_us"] = st.p50_us;
  c["lat_p90_us"] = st.p90_us;
  c["lat_p99_us"] = st.p99_us;
  c["lat_p999_us"] = st.p999_us;
  c["lat_max_us"] = st.max_us;
  c["half_round_trip"] = half ? 1 : 0;
  out.label = half ? "lat=half round trip" : "lat=full round trip";
  return seconds > 0 ? msgs / seconds : 0;
}

// The device's informational asynchronous events during the run, after the row's label:
// "...; device events: client IBV_EVENT_GID_CHANGE (port 1)".
void add_device_events(std::string& label, const RunResult& r) {
  std::string events;
  for (const auto& [side, report] :
       {std::pair{"client", &r.client}, std::pair{"server", &r.server}})
    for (const std::string& e : report->device_events)
      events += (events.empty() ? "" : ", ") + std::string(side) + " " + e;
  if (!events.empty()) label += "; device events: " + events;
}

}  // namespace

RunCounters run_counters(const TestSpec& spec, const RunResult& r, std::span<uint64_t> samples) {
  RunCounters out;
  const double rate = spec.mode == Mode::kBandwidth ? add_bandwidth(out, spec, r)
                                                    : add_latency(out, spec, r, samples);
  auto& c = out.counters;
  c["msgs_per_second"] = rate;
  c["bytes_per_second"] = rate * static_cast<double>(spec.size);
  if (spec.mode == Mode::kBandwidth && spec.rate > 0)  // what --rate offered, every QP and way
    c["offered_msgs_per_second"] = static_cast<double>(spec.rate) * spec.qps * (spec.bidir ? 2 : 1);
  c["size"] = static_cast<double>(spec.size);
  out.seconds_per_msg = rate > 0 ? 1.0 / rate : 0;
  double all_msgs = 0;  // every message of the run, both directions, margins included
  for (uint32_t i = 0; i < spec.qps; ++i) all_msgs += stream_messages(spec, r, i);
  all_msgs = std::max(all_msgs, 1.0);
  add_side(out, spec, r, "client", r.client, all_msgs);
  add_side(out, spec, r, "server", r.server, all_msgs);
  add_device_counters(c, r, all_msgs, spec.size);
  add_device_events(out.label, r);
  return out;
}

uint64_t writes_not_checked(const TestSpec& spec, const RunResult& run) {
  if (!spec.checks_landed_writes()) return 0;
  uint64_t missing = 0;
  for (uint32_t i = 0; i < spec.qps; ++i)
    if (run.client.sent[i] > run.server.received[i])
      missing += run.client.sent[i] - run.server.received[i];
  return missing;
}

namespace {
// The corrupt bytes/messages both sides' checks found.
uint64_t corrupt_found(const RunResult& run) {
  return run.client.verify.errors + run.server.verify.errors;
}
}  // namespace

uint64_t verify_errors(const TestSpec& spec, const RunResult& check) {
  return corrupt_found(check) + writes_not_checked(spec, check);
}

Error verify_failure(const TestSpec& spec, uint64_t errors) {
  return Error(ExitCode::kVerification, spec.name() + ": --verify found " + std::to_string(errors) +
                                            " corrupt bytes/messages");
}

uint64_t validated_messages(const TestSpec& spec, const RunResult& run) {
  if (spec.mode == Mode::kBandwidth && spec.counts_arrivals())
    return total(run.server.received) + total(run.client.received);
  double messages = 0;
  for (uint32_t i = 0; i < spec.qps; ++i) messages += stream_messages(spec, run, i);
  return static_cast<uint64_t>(messages);
}

namespace {
// "message 12 of QP 0, checked by the server": where a side's checks first failed.
std::string first_bad_text(const std::optional<BadMessage>& bad, const char* side) {
  if (!bad) return "";
  return "message " + std::to_string(bad->message) + " of QP " + std::to_string(bad->stream) +
         " (its number in the run, from 1), checked by the " + side;
}

// "3 writes the client completed were never checked by the server; the first: message 9 of QP 1".
std::string unchecked_text(const TestSpec& spec, const RunResult& run, uint64_t unchecked) {
  uint32_t qp = 0;
  while (qp + 1 < spec.qps && run.client.sent[qp] <= run.server.received[qp]) ++qp;
  return std::to_string(unchecked) +
         " writes the client completed were never checked by the server; the first: message " +
         std::to_string(run.server.received[qp] + 1) + " of QP " + std::to_string(qp);
}
}  // namespace

Error validate_failure(const TestSpec& spec, const RunResult& run) {
  const uint64_t unchecked = writes_not_checked(spec, run);
  std::string text = spec.name() + ": --validate found " + std::to_string(corrupt_found(run)) +
                     " corrupt bytes/messages in a timed run";
  std::string first = first_bad_text(run.server.verify.first, "server");
  if (first.empty()) first = first_bad_text(run.client.verify.first, "client");
  if (!first.empty()) text += "; the first: " + first;
  if (unchecked > 0) text += "; " + unchecked_text(spec, run, unchecked);
  return Error(ExitCode::kVerification, text);
}

}  // namespace rdmabench
