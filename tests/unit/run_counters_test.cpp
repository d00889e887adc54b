// The arithmetic behind every published figure, without a device: run_counters on made-up
// run results, against the counter catalogue and against itself (bytes = msgs x size,
// real_time = 1 / msgs_per_second, per-QP and per-thread shares that add up).
#include <gtest/gtest.h>

#include <set>

#include "bench/pattern_catalogue.h"
#include "measure/counter_catalogue.h"
#include "measure/device_counters.h"
#include "measure/run_counters.h"
#include "spec_fixture.h"

using namespace rdmabench;

namespace {

SideFigures figures(uint64_t cpu_ns) {
  return {.cpu_ns = cpu_ns,
          .voluntary_switches = 2,
          .involuntary_switches = 1,
          .page_faults = 6,
          .wakeups = 3,
          .empty_polls = 4};
}

// Two threads, two QPs (one each), 4 KiB, both directions: the client counted 100 messages
// per QP in a 1 s window, the server 50 per QP in its own 0.5 s window.
RunResult bidir_bw_result() {
  RunResult r;
  r.client.threads = {figures(1'000'000), figures(3'000'000)};
  r.client.total = figures(4'000'000);
  r.client.window_ns = 1'000'000'000;
  r.client.counted = {100, 100};
  r.client.sent = {100, 100};
  r.client.finish_ns = {0, 0};
  r.server.threads = {figures(500'000), figures(500'000)};
  r.server.total = figures(1'000'000);
  r.server.window_ns = 500'000'000;
  r.server.counted = {50, 50};
  r.server.sent = {50, 50};
  return r;
}

TestSpec spec_of(const char* pattern, Mode mode, uint32_t qps, uint32_t threads) {
  return a_spec(pattern, mode, 4096, qps, threads);
}

void expect_catalogued(const RunCounters& c) {
  for (const auto& [name, value] : c.counters)
    EXPECT_NE(find_counter(name), nullptr) << name << " is not in the counter catalogue";
}

}  // namespace

TEST(RunCounters, BidirectionalBandwidthAddsBothDirectionsEachOverItsWindow) {
  TestSpec s = spec_of("write", Mode::kBandwidth, 2, 2);
  s.bidir = true;
  const RunCounters c = run_counters(s, bidir_bw_result(), {});
  expect_catalogued(c);
  const auto& k = c.counters;
  EXPECT_DOUBLE_EQ(k.at("msgs_per_second"), 200.0 / 1.0 + 100.0 / 0.5);
  EXPECT_DOUBLE_EQ(k.at("bytes_per_second"), k.at("msgs_per_second") * 4096);
  EXPECT_DOUBLE_EQ(k.at("forward_bytes_per_second") + k.at("reverse_bytes_per_second"),
                   k.at("bytes_per_second"));
  EXPECT_DOUBLE_EQ(k.at("qp0_bytes_per_second") + k.at("qp1_bytes_per_second"),
                   k.at("forward_bytes_per_second"));
  EXPECT_DOUBLE_EQ(k.at("msgs"), 300);
  EXPECT_DOUBLE_EQ(c.seconds_per_msg, 1.0 / k.at("msgs_per_second"));
  // CPU per message over every message of the run, both directions: 4 ms / 300.
  EXPECT_DOUBLE_EQ(k.at("client_cpu_us_per_msg"), 4000.0 / 300);
  // The kernel's part in a side's time, per message of the run: its switches and page faults.
  EXPECT_DOUBLE_EQ(k.at("client_vcsw_per_msg"), 2.0 / 300);
  EXPECT_DOUBLE_EQ(k.at("server_ivcsw_per_msg"), 1.0 / 300);
  EXPECT_DOUBLE_EQ(k.at("server_faults_per_msg"), 6.0 / 300);
  // A thread's CPU over its own QP's messages (QP t on thread t): 3 ms / 150.
  EXPECT_DOUBLE_EQ(k.at("client_thread1_cpu_us_per_msg"), 3000.0 / 150);
  EXPECT_DOUBLE_EQ(k.at("client_thread0_msgs") + k.at("client_thread1_msgs"), 300);
}

TEST(RunCounters, LatencyCountsTwoMessagesPerRoundTripWhereItReportsHalf) {
  for (const char* pattern : {"send", "read"}) {
    const TestSpec s = spec_of(pattern, Mode::kLatency, 2, 2);
    const bool half = s.half_round_trip();
    RunResult r;
    r.client_lat.resize(2);
    std::vector<uint64_t> samples = {10'000, 20'000, 0, 30'000, 40'000, 0};  // 3 per thread
    for (auto& lat : r.client_lat) {
      lat.round_trips = 2;
      lat.seconds = 1e-3;
      lat.span_seconds = 2e-3;
    }
    r.client.threads = {figures(1000), figures(1000)};
    r.client.total = figures(2000);
    r.client.counted = {2, 2};
    r.client.sent = {2, 2};
    r.server.threads = r.client.threads;
    r.server.total = r.client.total;
    r.server.counted = {2, 2};
    r.server.sent = {2, 2};
    const RunCounters c = run_counters(s, r, samples);
    expect_catalogued(c);
    const auto& k = c.counters;
    const double factor = half ? 0.5 : 1.0;
    EXPECT_DOUBLE_EQ(k.at("lat_min_us"), 10.0 * factor) << pattern;
    EXPECT_DOUBLE_EQ(k.at("lat_max_us"), 40.0 * factor) << pattern;
    EXPECT_DOUBLE_EQ(k.at("lat_mean_us"), 25.0 * factor) << pattern;
    EXPECT_DOUBLE_EQ(k.at("msgs"), half ? 8 : 4) << pattern;
    EXPECT_DOUBLE_EQ(k.at("half_round_trip"), half ? 1 : 0) << pattern;
    EXPECT_DOUBLE_EQ(k.at("bytes_per_second"), k.at("msgs_per_second") * 4096) << pattern;
    EXPECT_DOUBLE_EQ(k.at("achieved_rate"), 4 / 2e-3) << pattern;
  }
}

// Open loop: 3 QPs on 2 threads (thread 0: QPs 0 and 2, thread 1: QP 1), each thread's samples
// in a share of room 4 per connection. Each QP's percentiles come from its own samples alone,
// the run's from all of them, and the rate from the span the connections shared.
TEST(RunCounters, OpenLoopLatencyHasEachConnectionsPercentilesAndTheRunsOverAll) {
  TestSpec s = spec_of("send", Mode::kLatency, 3, 2);
  s.rate = 1000;
  ASSERT_TRUE(s.open_loop());
  RunResult r;
  r.client_lat.resize(2);
  // Thread 0: QP 0 counted 3 (10, 30, 20 us), QP 2 counted 2 (100, 300 us); thread 1: QP 1
  // counted 4 (1..4 us). Unused room holds what a wrong gathering would take.
  std::vector<uint64_t> samples = {10'000,    30'000,    20'000,    9'999'000, 100'000, 300'000,
                                   9'999'000, 9'999'000, 1'000,     4'000,     2'000,   3'000,
                                   9'999'000, 9'999'000, 9'999'000, 9'999'000};
  r.client_lat[0].connections = {{5, 3}, {4, 2}};
  r.client_lat[0].connection_room = 4;
  r.client_lat[0].round_trips = 5;
  r.client_lat[0].span_seconds = 0.5;
  r.client_lat[1].connections = {{4, 4}};
  r.client_lat[1].connection_room = 4;
  r.client_lat[1].round_trips = 4;
  r.client_lat[1].span_seconds = 0.25;
  r.client.threads = {figures(1000), figures(1000)};
  r.client.total = figures(2000);
  r.client.counted = {3, 4, 2};
  r.client.sent = {5, 4, 4};
  r.server.threads = r.client.threads;
  r.server.total = r.client.total;
  r.server.counted = {5, 4, 4};
  r.server.sent = {5, 4, 4};
  const RunCounters c = run_counters(s, r, samples);
  expect_catalogued(c);
  const auto& k = c.counters;
  EXPECT_DOUBLE_EQ(k.at("qp0_lat_p50_us"), 10.0);  // half of the 20 us round trip
  EXPECT_DOUBLE_EQ(k.at("qp1_lat_p50_us"), 1.25);
  EXPECT_DOUBLE_EQ(k.at("qp2_lat_p50_us"), 100.0);
  EXPECT_DOUBLE_EQ(k.at("qp2_lat_p99_us"), 0.5 * (100 + 0.99 * 200));
  EXPECT_DOUBLE_EQ(k.at("qp0_round_trips"), 3);
  EXPECT_DOUBLE_EQ(k.at("qp1_round_trips"), 4);
  EXPECT_DOUBLE_EQ(k.at("qp2_round_trips"), 2);
  EXPECT_DOUBLE_EQ(k.at("round_trips"), 9);
  EXPECT_DOUBLE_EQ(k.at("lat_max_us"), 150.0);
  EXPECT_DOUBLE_EQ(k.at("lat_min_us"), 0.5);
  EXPECT_DOUBLE_EQ(k.at("offered_rate"), 3000);  // every QP's
  EXPECT_DOUBLE_EQ(k.at("msgs_per_second"), 18 / 0.5);
}

TEST(RunCounters, DeviceCountersArePerSideRawAndPerMessageAndTheWireIsAccounted) {
  const TestSpec s = spec_of("write", Mode::kBandwidth, 2, 2);
  RunResult r = bidir_bw_result();  // 300 messages of 4 KiB in the whole run
  r.client.device_counters = {
      {"hw_sent_pkts", 330}, {"netdev_tx_bytes", 1'300'000}, {"hw_completer_retry_err", 3}};
  r.server.device_counters = {
      {"hw_sent_pkts", 300}, {"netdev_tx_bytes", 30'000}, {"hw_duplicate_request", 16}};
  const RunCounters c = run_counters(s, r, {});
  expect_catalogued(c);
  const auto& k = c.counters;
  EXPECT_DOUBLE_EQ(k.at("client_dev_hw_sent_pkts"), 330);
  EXPECT_DOUBLE_EQ(k.at("server_dev_hw_duplicate_request_per_msg"), 16.0 / 300);
  EXPECT_DOUBLE_EQ(k.at("wire_packets_per_msg"), 630.0 / 300);
  EXPECT_DOUBLE_EQ(k.at("wire_bytes_per_payload_byte"), 1'330'000.0 / (300 * 4096));
  EXPECT_DOUBLE_EQ(k.at("wire_retransmissions"), 19);
  EXPECT_DOUBLE_EQ(k.at("wire_resend_episodes"), 3);  // the timer fired 3 times; 16 duplicates
  EXPECT_EQ(k.count("wire_rnr_naks"), 0u);            // no counter of that kind: unknown, not 0
  EXPECT_EQ(find_counter("client_dev_hw_sent_pkts_per_msg")->per, "msg");
  EXPECT_EQ(find_counter("client_dev_hw_sent_pkts")->per, "");
  EXPECT_EQ(device_trouble(k),
            std::vector<std::string>{"retransmission 19 (client hw_completer_retry_err 3, server "
                                     "hw_duplicate_request 16)"});
  // The IB port counters count data in 4-byte words; without counters nothing is added.
  r.client.device_counters = {{"port_port_xmit_data", 400'000}};
  r.server.device_counters = {{"port_port_xmit_data", 0}};
  EXPECT_DOUBLE_EQ(run_counters(s, r, {}).counters.at("wire_bytes_per_payload_byte"),
                   1'600'000.0 / (300 * 4096));
  r.client.device_counters.clear();
  r.server.device_counters.clear();
  for (const auto& [name, value] : run_counters(s, r, {}).counters)
    EXPECT_TRUE(name.find("_dev_") == std::string::npos && !name.starts_with("wire_")) << name;
}

// One host, one device (rxe on lo): both sides read the same port, each reading counting both
// sides' traffic. The row counts it once, the client's reading (it spans the server's): the
// sums were twice the wire before.
TEST(RunCounters, OnePortIsCountedOnceFromTheClientsReading) {
  const TestSpec s = spec_of("write", Mode::kBandwidth, 2, 2);
  RunResult r = bidir_bw_result();  // 300 messages of 4 KiB in the whole run
  r.one_port = true;
  r.client.device_counters = {{"hw_sent_pkts", 630},
                              {"netdev_tx_bytes", 1'330'000},
                              {"hw_completer_retry_err", 3},
                              {"hw_duplicate_request", 16}};
  r.server.device_counters = {{"hw_sent_pkts", 628},
                              {"netdev_tx_bytes", 1'329'000},
                              {"hw_completer_retry_err", 3},
                              {"hw_duplicate_request", 16}};
  const RunCounters c = run_counters(s, r, {});
  expect_catalogued(c);
  const auto& k = c.counters;
  EXPECT_DOUBLE_EQ(k.at("wire_one_port"), 1);
  EXPECT_DOUBLE_EQ(k.at("client_dev_hw_sent_pkts"), 630);
  EXPECT_DOUBLE_EQ(k.at("wire_packets_per_msg"), 630.0 / 300);
  EXPECT_DOUBLE_EQ(k.at("wire_bytes_per_payload_byte"), 1'330'000.0 / (300 * 4096));
  EXPECT_DOUBLE_EQ(k.at("wire_retransmissions"), 19);
  EXPECT_DOUBLE_EQ(k.at("wire_resend_episodes"), 3);
  for (const auto& [name, value] : k) EXPECT_FALSE(name.starts_with("server_dev_")) << name;
  EXPECT_EQ(device_trouble(k),
            std::vector<std::string>{"retransmission 19 (client hw_completer_retry_err 3, client "
                                     "hw_duplicate_request 16)"});
  // Two ports (the default): each side's reading, and no wire_one_port.
  r.one_port = false;
  const RunCounters two = run_counters(s, r, {});
  EXPECT_EQ(two.counters.count("wire_one_port"), 0u);
  EXPECT_DOUBLE_EQ(two.counters.at("wire_packets_per_msg"), (630.0 + 628) / 300);
  EXPECT_DOUBLE_EQ(two.counters.at("server_dev_hw_sent_pkts"), 628);
}

TEST(CounterCatalogue, NamesAreUniqueAndPlaceholdersMatchIndicesOnly) {
  std::set<std::string_view> names;
  for (const CounterInfo& c : counter_catalogue()) {
    EXPECT_TRUE(names.insert(c.name).second) << c.name;
    EXPECT_FALSE(c.unit.empty()) << c.name;
  }
  EXPECT_NE(find_counter("qp12_bytes_per_second"), nullptr);
  EXPECT_EQ(find_counter("qpX_bytes_per_second"), nullptr);
  EXPECT_EQ(find_counter("qp_bytes_per_second"), nullptr);
  EXPECT_EQ(find_counter("bandwidth"), nullptr);
  EXPECT_EQ(find_counter("client_dev_hw_Sent"), nullptr);  // a device counter's name is plain
  EXPECT_EQ(find_counter("client_dev_"), nullptr);
  EXPECT_EQ(find_counter("lat_p99_us")->better, Better::kLower);
  EXPECT_EQ(find_counter("bytes_per_second")->better, Better::kHigher);
}

TEST(RunCounters, TheDevicesInformationalEventsFollowTheLabel) {
  RunResult r = bidir_bw_result();
  const TestSpec spec = spec_of("write", Mode::kBandwidth, 2, 2);
  EXPECT_EQ(run_counters(spec, r, {}).label.find("device events"), std::string::npos);
  r.client.device_events = {"IBV_EVENT_GID_CHANGE (port 1)"};
  r.server.device_events = {"IBV_EVENT_PORT_ACTIVE (port 1)"};
  const std::string label = run_counters(spec, r, {}).label;
  EXPECT_NE(label.find("; device events: client IBV_EVENT_GID_CHANGE (port 1), server "
                       "IBV_EVENT_PORT_ACTIVE (port 1)"),
            std::string::npos)
      << label;
}

// --validate's write bw: a write the client completed that the server's checks never reached
// fails the run, counted and named by its QP and number, beside any damage found; a run whose
// counts agree has nothing to say. Other patterns never count so.
TEST(RunCounters, WritesTheTargetNeverCheckedFailAValidatedWriteRun) {
  TestSpec spec = spec_of("write", Mode::kBandwidth, 2, 1);
  spec.validate = true;
  RunResult r;
  r.client.sent = {10, 5};
  r.server.received = {10, 3};
  EXPECT_EQ(writes_not_checked(spec, r), 2u);
  EXPECT_EQ(verify_errors(spec, r), 2u);
  r.server.verify.add(4, 0, 7);
  EXPECT_EQ(verify_errors(spec, r), 6u);
  const std::string why = validate_failure(spec, r).what();
  EXPECT_NE(why.find("--validate found 4 corrupt bytes/messages"), std::string::npos) << why;
  EXPECT_NE(why.find("the first: message 7 of QP 0"), std::string::npos) << why;
  EXPECT_NE(why.find("2 writes the client completed were never checked by the server; the "
                     "first: message 4 of QP 1"),
            std::string::npos)
      << why;
  r.server.received = {10, 5};
  EXPECT_EQ(writes_not_checked(spec, r), 0u);
  spec.validate = false;
  r.server.received = {0, 0};
  EXPECT_EQ(writes_not_checked(spec, r), 0u);
}
