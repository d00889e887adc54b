// A mesh of N simulated ranks, for tools/mesh-scale: every pair of a shift mesh (write bw
// 64 KiB and lat 2 B, the mesh's defaults) "measured" through the mesh's own measurement
// (measure_one_pair, run_counters) from a synthetic run whose figures carry a few planted
// faults, each rank's results trimmed and serialised as the gather sends them, then parsed,
// reported (mesh_report) and written as rank 0 does. Prints one JSON line: sizes, the time
// of each step, peak memory, and whether the report names every planted fault.
//
// Usage: mesh_scale RANKS OUT.json [--matrices auto|all|heatmaps]
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <random>

#include "bench/pattern_catalogue.h"
#include "core/error.h"
#include "core/version.h"
#include "mesh/mesh_report.h"
#include "mesh/pair_measurement.h"
#include "mesh/repetitions.h"
#include "mesh/schedule.h"

using namespace rdmabench;

namespace {

using Clock = std::chrono::steady_clock;

// What is planted: one host whose every link runs at half speed, one slow link, and one host
// whose wire resends on every pair (its bandwidth 5 % down only, well above --min-fraction).
struct Planted {
  int slow_host, lossy_host;
  MeshPair slow_link;
  static Planted for_ranks(int n) { return {n / 3, (2 * n) / 3, {1, n / 2 + 1}}; }
  double bw_factor(MeshPair p) const {
    double f = 1;
    if (p.client == slow_host || p.server == slow_host) f *= 0.5;
    if (p == slow_link) f *= 0.6;
    if (p.client == lossy_host || p.server == lossy_host) f *= 0.95;
    return f;
  }
  double resends(MeshPair p) const {
    return p.client == lossy_host || p.server == lossy_host ? 0.05 : 0;
  }
};

// A run as the pair's session would return it: rxe's counters on both sides, the window (bw)
// or round trips (lat) of the pair's speed.
class SyntheticRun : public RunSource {
 public:
  SyntheticRun(const TestSpec& spec, double bytes_per_second, double resends_per_msg)
      : spec_(spec), rate_(bytes_per_second), resends_(resends_per_msg) {}
  RunResult run(const ClientRun& request, std::span<uint64_t> samples) override {
    const uint64_t n = request.length.iterations;
    RunResult r;
    r.client_lat.resize(1);
    const double msg_ns = static_cast<double>(std::max<uint64_t>(spec_.size, 64)) / rate_ * 1e9;
    if (spec_.mode == Mode::kLatency) {
      auto& lat = r.client_lat[0];
      lat.round_trips = n;
      lat.seconds = static_cast<double>(n) * 2 * msg_ns * 1e-9;
      lat.span_seconds = lat.seconds;
      for (uint64_t i = 0; i < n && i < samples.size(); ++i)
        samples[i] = static_cast<uint64_t>(2 * msg_ns) + i % 97;
    }
    const uint64_t packets = n * (spec_.size / 4096 + 1);
    const auto retries = static_cast<uint64_t>(resends_ * static_cast<double>(n));
    for (SideReport* side : {&r.client, &r.server}) {
      side->threads.assign(1, SideFigures{n * 3000, n / 10, 1, 0, n});
      side->total = side->threads[0];
      side->counted.assign(1, n);
      side->sent.assign(1, n);
      side->received.assign(1, n);
      side->finish_ns.assign(1, 0);
      side->window_ns = static_cast<uint64_t>(static_cast<double>(n) * msg_ns);
      side->device_counters = {{"hw_sent_pkts", packets + retries},
                               {"hw_rcvd_pkts", packets},
                               {"hw_duplicate_request", retries},
                               {"hw_out_of_seq_request", 0},
                               {"hw_rcvd_seq_err", 0},
                               {"hw_completer_retry_err", retries},
                               {"hw_retry_exceeded_err", 0},
                               {"hw_rcvd_rnr_err", 0},
                               {"hw_send_rnr_err", 0},
                               {"hw_retry_rnr_exceeded_err", 0},
                               {"hw_ack_deferred", 0},
                               {"hw_send_err", 0},
                               {"hw_link_downed", 0},
                               {"hw_rdma_sends", n},
                               {"hw_rdma_recvs", n},
                               {"netdev_tx_bytes", n * spec_.size + packets * 58},
                               {"netdev_rx_bytes", packets * 58},
                               {"netdev_tx_packets", packets},
                               {"netdev_rx_packets", packets},
                               {"netdev_tx_dropped", 0},
                               {"netdev_rx_dropped", 0},
                               {"netdev_tx_errors", 0},
                               {"netdev_rx_errors", 0}};
    }
    return r;
  }

 private:
  const TestSpec& spec_;
  double rate_, resends_;
};

TestSpec mesh_spec(Mode mode) {
  TestSpec s;
  s.pattern = parse_pattern("write").value();
  s.mode = mode;
  s.size = mode == Mode::kLatency ? 2 : 65536;
  return s;
}

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Every pair of the shift schedule, measured; each rank's trimmed results as the JSON text
// the gather carries.
std::vector<std::string> measure_all(int n, const Planted& planted, MatrixScope scope) {
  std::mt19937 noise(42);
  std::uniform_real_distribution<double> within(0.98, 1.02);
  std::vector<nlohmann::json> per_rank(static_cast<size_t>(n), nlohmann::json::array());
  PairRunOptions one_pair_options;  // 1000 messages after 16 of warm-up, as a rank runs them
  for (Mode mode : {Mode::kBandwidth, Mode::kLatency}) {
    const TestSpec spec = mesh_spec(mode);
    for (const MeshRound& round : shift_schedule(n))
      for (const MeshPair& p : round) {
        SyntheticRun source(spec, 3.3e9 * planted.bw_factor(p) * within(noise), planted.resends(p));
        PairResult r{spec.name(), p, {}, "", 0, to_string(mode)};
        r.counters = measure_one_pair(source, spec, one_pair_options);
        r.counters = report_counters(std::move(r.counters), judged_figure(r.mode).counter, scope);
        per_rank[static_cast<size_t>(p.client)].push_back(r.to_json());
      }
  }
  std::vector<std::string> texts;
  for (const auto& j : per_rank) texts.push_back(j.dump());
  return texts;
}

// What each rank would say of itself: one 200 Gb/s RoCE NIC per host.
nlohmann::json simulated_hosts(int n) {
  nlohmann::json hosts = nlohmann::json::array();
  for (int i = 0; i < n; ++i) {
    const std::string address =
        "10." + std::to_string(i / 256) + "." + std::to_string(i % 256) + ".1";
    hosts.push_back({{"rank", i},
                     {"hostname", "node" + std::to_string(i)},
                     {"address", address},
                     {"port", 18515},
                     {"device", "mlx5_0"},
                     {"driver", "mlx5"},
                     {"firmware", "simulated"},
                     {"link_layer", "Ethernet"},
                     {"port_state", "ACTIVE"},
                     {"gid", "::ffff:" + address},
                     {"gid_index", 3},
                     {"gid_type", "RoCE v2"},
                     {"kernel", "simulated"},
                     {"rdma_core", "simulated"},
                     {"timing", "simulated"}});
  }
  return hosts;
}

nlohmann::json simulated_context(int n, MatrixScope scope) {
  return {{"schema", "rdmabench-mesh/1"},
          {"date", "simulated"},
          {"rdmabench_version", kVersion},
          {"ranks", n},
          {"rounds", n - 1},
          {"schedule", "shift (simulated)"},
          {"min_fraction", 0.8},
          {"mpi", "none (tools/mesh-scale)"},
          {"matrices", to_string(scope)},
          {"rdmabench_params", nlohmann::json::object()}};
}

bool names(const nlohmann::json& list, const nlohmann::json& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc != 3 && !(argc == 5 && std::string(argv[3]) == "--matrices"))
    throw Error(ExitCode::kUsage,
                "usage: mesh_scale RANKS OUT.json [--matrices auto|all|heatmaps]");
  const int n = std::stoi(argv[1]);
  if (n < 8 || n > 4096) throw Error(ExitCode::kUsage, "RANKS must be 8..4096");
  const MatrixScope scope =
      parse_matrix_scope(argc == 5 ? argv[4] : "auto", static_cast<size_t>(n));
  const Planted planted = Planted::for_ranks(n);
  auto t = Clock::now();
  const std::vector<std::string> gathered = measure_all(n, planted, scope);
  const double measure_s = seconds_since(t);
  size_t gathered_bytes = 0;
  for (const auto& text : gathered) gathered_bytes += text.size();
  t = Clock::now();
  std::vector<PairResult> results;
  for (const std::string& text : gathered)
    for (const auto& r : nlohmann::json::parse(text)) results.push_back(PairResult::from_json(r));
  const nlohmann::json hosts = simulated_hosts(n);
  const size_t pairs = results.size();
  const nlohmann::json report =
      mesh_report(simulated_context(n, scope), hosts, best_of_repetitions(std::move(results)),
                  {0.8, 0.01}, scope);
  const double report_s = seconds_since(t);
  t = Clock::now();
  std::ofstream out(argv[2]);
  out << report.dump(static_cast<size_t>(n) > kAllMatricesUpTo ? -1 : 1) << "\n";
  out.close();
  const double write_s = seconds_since(t);
  const auto& bw = report["benchmarks"][0];
  const nlohmann::json link = {planted.slow_link.client, planted.slow_link.server};
  rusage used{};
  getrusage(RUSAGE_SELF, &used);
  const nlohmann::json line = {
      {"ranks", n},
      {"pairs", pairs},
      {"matrices", to_string(scope)},
      {"gathered_bytes", gathered_bytes},
      {"seconds", {{"measure", measure_s}, {"gather_and_report", report_s}, {"write", write_s}}},
      {"peak_rss_mb", used.ru_maxrss / 1024},
      {"planted",
       {{"slow_host", planted.slow_host}, {"slow_link", link}, {"lossy_host", planted.lossy_host}}},
      {"named",
       {{"slow_host", names(report["verdict"]["slow_hosts"], planted.slow_host)},
        {"slow_link", names(bw["outliers"]["slow_pairs"], link)},
        {"lossy_host", names(report["verdict"]["resending_hosts"], planted.lossy_host)}}},
      {"slow_hosts", report["verdict"]["slow_hosts"]},
      {"resending_hosts", report["verdict"]["resending_hosts"]}};
  std::cout << line.dump() << std::endl;
  return 0;
} catch (const Error& e) {
  std::cerr << "mesh_scale: " << e.what() << "\n";
  return static_cast<int>(e.exit_code());
}
