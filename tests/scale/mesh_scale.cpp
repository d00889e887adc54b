// A mesh of N simulated ranks, for tools/mesh-scale, seen from one of its ranks (--as-rank,
// rank 0 by default): that rank measures its own row of a shift mesh (write bw 64 KiB and lat
// 2 B, the mesh's defaults) through the mesh's own measurement (measure_one_pair, run_counters,
// report_counters, best_of_repetitions, rank_rows) from synthetic runs carrying a few planted
// faults, and takes part in the report's reduction (mesh_report.h) as the mesh job does; every
// other rank's row is made when the reduction asks for it (the same figures, scaled from one
// pair measured through the same path) and dropped after. Rank 0 writes the report as the job
// does (mesh_report_file.h). Prints one JSON line: sizes, the time of each step (the peers'
// own share apart), peak memory, and at rank 0 whether the report names every planted fault.
//
// Usage: mesh_scale RANKS OUT.json [--matrices auto|all|heatmaps] [--as-rank R]
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <iostream>

#include "bench/pattern_catalogue.h"
#include "core/error.h"
#include "core/version.h"
#include "mesh/mesh_report_file.h"
#include "mesh/mesh_report_json.h"
#include "mesh/pair_measurement.h"
#include "mesh/rank_rows.h"
#include "mesh/reduce_report.h"
#include "mesh/repetitions.h"
#include "mesh/report_ranks.h"
#include "mesh/schedule.h"

using namespace rdmabench;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// What is planted: one host whose every link runs at half speed, one slow link, and one host
// whose wire resends on every pair (its bandwidth 5 % down only, well above --min-fraction).
// Every pair also varies by +-2 %, the same whichever rank makes its figures.
// With racks (--schedule sampled), one rack's uplink also runs at half speed: every pair
// between it and another rack.
struct Planted {
  int slow_host, lossy_host;
  MeshPair slow_link;
  int group_size = 0, slow_group = -1;  // racks of group_size ranks, in rank order
  static Planted for_ranks(int n, int group_size) {
    Planted p{n / 3, (2 * n) / 3, {1, n / 2 + 1}};
    if (group_size > 0 && n / group_size >= 4)
      p.group_size = group_size, p.slow_group = n / group_size / 4;
    return p;
  }
  bool lossy(MeshPair p) const { return p.client == lossy_host || p.server == lossy_host; }
  bool through_slow_uplink(MeshPair p) const {
    if (slow_group < 0) return false;
    const int c = p.client / group_size, s = p.server / group_size;
    return c != s && (c == slow_group || s == slow_group);
  }
  double bw_factor(MeshPair p) const {
    double f = 1;
    if (p.client == slow_host || p.server == slow_host) f *= 0.5;
    if (through_slow_uplink(p)) f *= 0.5;
    if (p == slow_link) f *= 0.6;
    if (lossy(p)) f *= 0.95;
    uint64_t z = (static_cast<uint64_t>(p.client) << 32 | static_cast<uint32_t>(p.server)) +
                 0x9e3779b97f4a7c15ULL;  // splitmix64
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return f * (0.98 + 0.04 * static_cast<double>(z >> 11) * 0x1.0p-53);
  }
  double resends(MeshPair p) const { return lossy(p) ? 0.05 : 0; }
};

constexpr double kRate = 3.3e9;  // bytes/s of a healthy pair

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
      side->threads.assign(1, SideFigures{n * 3000, n / 10, 1, 0, 0, n});
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

const std::vector<TestSpec>& mesh_specs() {
  static const std::vector<TestSpec> specs = {mesh_spec(Mode::kBandwidth),
                                              mesh_spec(Mode::kLatency)};
  return specs;
}

// A pair measured as the mesh job measures it, on a synthetic run at its planted speed.
PairResult measured_pair(const TestSpec& spec, MeshPair p, const Planted& planted,
                         MatrixScope scope) {
  SyntheticRun source(spec, kRate * planted.bw_factor(p), planted.resends(p));
  PairResult r{spec.name(), p, {}, "", 0, to_string(spec.mode)};
  r.counters = report_counters(measure_one_pair(source, spec, PairRunOptions{}),
                               judged_figure(r.mode).counter, scope);
  return r;
}

// The shift mesh's figures: a rank's own row measured pair by pair; anyone else's made from
// one healthy and one resending pair of each benchmark, measured once, scaled by the pair's
// speed (bandwidth with it, latency against it).
class SyntheticMesh {
 public:
  SyntheticMesh(int n, MatrixScope scope, const MeshSchedule& schedule, int group_size)
      : n_(n),
        scope_(scope),
        planted_(Planted::for_ranks(n, group_size)),
        schedule_(schedule),
        all_pairs_(group_size == 0) {
    for (const TestSpec& spec : mesh_specs()) {
      benchmarks_.emplace_back(spec.name(), to_string(spec.mode));
      const MeshPair healthy{0, 0};
      const double f = planted_.bw_factor(healthy);
      base_.push_back({scaled(measured_pair(spec, healthy, planted_, scope).counters, 1 / f),
                       scaled(measure_resending(spec), 1 / f)});
    }
  }
  const Planted& planted() const { return planted_; }
  const std::vector<BenchmarkName>& benchmarks() const { return benchmarks_; }

  // The ranks `rank` measures towards, in the schedule's order.
  std::vector<int> servers_of(int rank) const {
    std::vector<int> servers;
    for (size_t k = 0; k < schedule_.rounds(); ++k)
      if (const auto s = schedule_.server_of(rank, k)) servers.push_back(*s);
    return servers;
  }

  // Rank `rank`'s row as the mesh job makes it: every pair measured, then rank_rows.
  RankRows measured_rows(int rank) const {
    std::vector<PairResult> mine;
    for (const TestSpec& spec : mesh_specs())
      for (int server : servers_of(rank))
        mine.push_back(measured_pair(spec, {rank, server}, planted_, scope_));
    return rank_rows(rank, static_cast<size_t>(n_), benchmarks_,
                     best_of_repetitions(std::move(mine)), scope_);
  }

  // Rank `rank`'s row made from the base pairs' figures (a tight loop per counter: the
  // reduction asks for every rank's row some 30 times).
  RankRows made_rows(int rank) const {
    RankRows rows{rank, static_cast<size_t>(n_), {}};
    const std::vector<int> servers = all_pairs_ ? std::vector<int>{} : servers_of(rank);
    std::vector<double> factor(static_cast<size_t>(n_));
    std::vector<uint8_t> lossy(static_cast<size_t>(n_));
    for (int s = 0; s < n_; ++s) {
      factor[s] = planted_.bw_factor({rank, s});
      lossy[s] = planted_.lossy({rank, s}) ? 1 : 0;
    }
    for (size_t b = 0; b < benchmarks_.size(); ++b) {
      BenchmarkRow row{benchmarks_[b].first, benchmarks_[b].second, {}, {}};
      for (const auto& [counter, healthy] : base_[b][0]) {
        const double values[2] = {healthy, base_[b][1].at(counter)};
        const int kind = counter == "bytes_per_second" ? 1 : counter.rfind("lat_", 0) == 0 ? 2 : 0;
        std::vector<double>& cells = row.counters[counter];
        cells.resize(static_cast<size_t>(n_));
        const auto fill = [&](size_t s) {
          const double v = values[lossy[s]];
          cells[s] = kind == 1 ? v * factor[s] : kind == 2 ? v / factor[s] : v;
        };
        if (all_pairs_) {
          for (size_t s = 0; s < cells.size(); ++s) fill(s);
        } else {
          std::fill(cells.begin(), cells.end(), NAN);
          for (int s : servers) fill(static_cast<size_t>(s));
        }
        cells[static_cast<size_t>(rank)] = NAN;
      }
      rows.benchmarks.push_back(std::move(row));
    }
    return rows;
  }

 private:
  static double scaled_one(const std::string& counter, double value, double f) {
    if (counter == "bytes_per_second") return value * f;
    if (counter.rfind("lat_", 0) == 0) return value / f;
    return value;
  }
  static std::map<std::string, double> scaled(std::map<std::string, double> counters, double f) {
    for (auto& [counter, value] : counters) value = scaled_one(counter, value, f);
    return counters;
  }
  std::map<std::string, double> measure_resending(const TestSpec& spec) const {
    SyntheticRun source(spec, kRate * planted_.bw_factor({0, 0}), 0.05);
    return report_counters(measure_one_pair(source, spec, PairRunOptions{}),
                           judged_figure(to_string(spec.mode)).counter, scope_);
  }

  int n_;
  MatrixScope scope_;
  Planted planted_;
  const MeshSchedule& schedule_;
  bool all_pairs_;  // shift: every pair, no schedule walked for each row
  std::vector<BenchmarkName> benchmarks_;
  std::vector<std::array<std::map<std::string, double>, 2>> base_;  // healthy, resending
};

// The report's ranks seen from rank `me`: its own rows, every other rank's made when a sum or
// a stream asks for it. Every rank's bytes are consumed, as rank 0 does (a rank that is not
// rank 0 then also holds what rank 0 gathers of the flagged pairs: its peak is an upper
// bound). The time spent on the other ranks' part is counted apart.
class SimulatedReportRanks : public ReportRanks {
 public:
  SimulatedReportRanks(const SyntheticMesh& mesh, int me, size_t n, const RankRows& mine)
      : mesh_(mesh), me_(me), n_(n), mine_(mine) {}
  int rank() const override { return me_; }
  size_t size() const override { return n_; }
  void sum(const Contribution& contribute, std::span<uint64_t> total) const override {
    std::fill(total.begin(), total.end(), 0);
    for (size_t r = 0; r < n_; ++r) {
      if (static_cast<int>(r) == me_) {
        contribute(mine_, total);
        continue;
      }
      const auto t = Clock::now();
      contribute(mesh_.made_rows(static_cast<int>(r)), total);
      peers_ += seconds_since(t);
    }
  }
  void stream(const Producer& produce, const Consumer& consume, size_t max_bytes) const override {
    for (size_t r = 0; r < n_; ++r) {
      const auto t = Clock::now();
      const std::string bytes = static_cast<int>(r) == me_
                                    ? produce(mine_)
                                    : produce(mesh_.made_rows(static_cast<int>(r)));
      if (static_cast<int>(r) != me_) peers_ += seconds_since(t);
      if (bytes.size() > max_bytes) throw Error(ExitCode::kConnection, "a rank's bytes too long");
      consume(static_cast<int>(r), bytes);
    }
  }
  std::string broadcast(const std::string& text) const override { return text; }
  double peer_seconds() const { return peers_; }

 private:
  const SyntheticMesh& mesh_;
  int me_;
  size_t n_;
  const RankRows& mine_;
  mutable double peers_ = 0;
};

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

nlohmann::json simulated_context(int n, MatrixScope scope, const MeshSchedule& schedule,
                                 const std::string& kind) {
  return {{"schema", "rdmabench-mesh/1"},
          {"date", "simulated"},
          {"rdmabench_version", kVersion},
          {"ranks", n},
          {"rounds", schedule.rounds()},
          {"schedule", kind + " (simulated)"},
          {"min_fraction", 0.8},
          {"mpi", "none (tools/mesh-scale)"},
          {"matrices", to_string(scope)},
          {"coverage", schedule.coverage()},
          {"rdmabench_params", nlohmann::json::object()}};
}

bool names(const nlohmann::json& list, const nlohmann::json& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

std::string rack_name(int g) {
  return "rack" + std::to_string(g);
}

// Whether the report names each planted fault; a slow link the schedule never measured is
// "not measured", not missed.
nlohmann::json named_faults(const nlohmann::json& report, const Planted& planted,
                            bool link_measured) {
  const nlohmann::json link = {planted.slow_link.client, planted.slow_link.server};
  nlohmann::json named = {
      {"slow_host", names(report["verdict"]["slow_hosts"], planted.slow_host)},
      {"slow_link", link_measured ? nlohmann::json(names(
                                        report["benchmarks"][0]["outliers"]["slow_pairs"], link))
                                  : nlohmann::json("not measured")},
      {"lossy_host", names(report["verdict"]["resending_hosts"], planted.lossy_host)}};
  if (planted.slow_group >= 0)
    named["slow_group"] = names(report["verdict"]["slow_groups"], rack_name(planted.slow_group));
  return named;
}

struct Arguments {
  int ranks = 0;
  std::string out;
  std::string matrices = "auto";
  int as_rank = 0;
  std::string schedule = "shift";
  int group_size = 32;
  size_t partners = 1, sample_rounds = 0;  // 0: enough to cover every pair of racks once
};

Arguments parse(int argc, char** argv) {
  const char* usage =
      "usage: mesh_scale RANKS OUT.json [--matrices auto|all|heatmaps] [--as-rank R] "
      "[--schedule shift|sampled] [--group-size S] [--partners K] [--sample-rounds R]";
  if (argc < 3 || argc % 2 == 0) throw Error(ExitCode::kUsage, usage);
  Arguments a{std::stoi(argv[1]), argv[2]};
  for (int i = 3; i + 1 < argc; i += 2) {
    const std::string option = argv[i], value = argv[i + 1];
    if (option == "--matrices")
      a.matrices = value;
    else if (option == "--as-rank")
      a.as_rank = std::stoi(value);
    else if (option == "--schedule" && (value == "shift" || value == "sampled"))
      a.schedule = value;
    else if (option == "--group-size")
      a.group_size = std::stoi(value);
    else if (option == "--partners")
      a.partners = std::stoul(value);
    else if (option == "--sample-rounds")
      a.sample_rounds = std::stoul(value);
    else
      throw Error(ExitCode::kUsage, usage);
  }
  if (a.ranks < 8 || a.ranks > 16384) throw Error(ExitCode::kUsage, "RANKS must be 8..16384");
  if (a.as_rank < 0 || a.as_rank >= a.ranks)
    throw Error(ExitCode::kUsage, "--as-rank must be one of the ranks");
  if (a.schedule == "sampled" && (a.group_size < 2 || a.group_size > a.ranks / 2 || a.partners < 1))
    throw Error(ExitCode::kUsage, "--group-size must be 2..RANKS/2 and --partners at least 1");
  return a;
}

// Racks of group_size ranks in rank order, named rack0, rack1, ...
MeshGroups racks_of(int ranks, int group_size) {
  MeshGroups g;
  for (int r = 0; r < ranks; ++r) g.of_rank.push_back(r / group_size);
  for (int k = 0; k <= (ranks - 1) / group_size; ++k) g.names.push_back(rack_name(k));
  return g;
}

}  // namespace

// Pairs a benchmark measures: every ordered pair, or the sampled schedule's.
size_t measured_pairs(const SyntheticMesh& mesh, int ranks, bool sampled) {
  if (!sampled) return static_cast<size_t>(ranks) * static_cast<size_t>(ranks - 1);
  size_t pairs = 0;
  for (int r = 0; r < ranks; ++r) pairs += mesh.servers_of(r).size();
  return pairs;
}

MeshSchedule schedule_of(const Arguments& a, const MeshGroups& racks) {
  if (a.schedule != "sampled") return MeshSchedule::shift(a.ranks);
  const size_t rounds = a.sample_rounds
                            ? a.sample_rounds
                            : MeshSchedule::sample_rounds_to_cover(racks.names.size(), a.partners);
  return MeshSchedule::sampled(racks.of_rank, a.partners, rounds);
}

// Rank 0's line: what the report named against what was planted.
void add_verdict(nlohmann::json& line, const nlohmann::json& report, const SyntheticMesh& mesh,
                 bool sampled) {
  const Planted& p = mesh.planted();
  const auto link_servers = mesh.servers_of(p.slow_link.client);
  line["named"] = named_faults(
      report, p,
      !sampled || std::count(link_servers.begin(), link_servers.end(), p.slow_link.server) > 0);
  line["slow_groups"] = report["verdict"].value("slow_groups", nlohmann::json::array());
  line["slow_hosts"] = report["verdict"]["slow_hosts"];
  line["resending_hosts"] = report["verdict"]["resending_hosts"];
  line["planted"] = {{"slow_host", p.slow_host},
                     {"slow_link", {p.slow_link.client, p.slow_link.server}},
                     {"lossy_host", p.lossy_host}};
  if (p.slow_group >= 0) line["planted"]["slow_group"] = rack_name(p.slow_group);
}

int main(int argc, char** argv) try {
  const Arguments a = parse(argc, argv);
  const auto n = static_cast<size_t>(a.ranks);
  const MatrixScope scope = parse_matrix_scope(a.matrices, n);
  auto t = Clock::now();
  const bool sampled = a.schedule == "sampled";
  const MeshGroups racks = racks_of(a.ranks, a.group_size);
  const MeshSchedule schedule = schedule_of(a, racks);
  const SyntheticMesh mesh(a.ranks, scope, schedule, sampled ? a.group_size : 0);
  const nlohmann::json hosts = simulated_hosts(a.ranks);  // every rank holds them (meet)
  const RankRows mine = mesh.measured_rows(a.as_rank);
  const double measure_s = seconds_since(t);
  const SimulatedReportRanks ranks(mesh, a.as_rank, n, mine);
  t = Clock::now();
  ReducedReport reduced = reduce_mesh_report(
      ranks, mesh.benchmarks(), simulated_context(a.ranks, scope, schedule, a.schedule),
      mesh_hosts(hosts), {0.8, 0.01}, sampled ? &racks : nullptr);
  const double reduce_s = seconds_since(t);
  t = Clock::now();
  const double peers_before_write = ranks.peer_seconds();
  if (a.as_rank == 0) {  // the other ranks' share of the matrices is their own row, sent
    MeshReportFile file(a.out, reduced.report, n);
    stream_matrices(ranks, reduced, &file);
    file.finish();
  }
  const double write_s = seconds_since(t);
  const double write_peers = ranks.peer_seconds() - peers_before_write;
  rusage used{};
  getrusage(RUSAGE_SELF, &used);
  nlohmann::json line = {{"ranks", a.ranks},
                         {"as_rank", a.as_rank},
                         {"pairs", 2 * measured_pairs(mesh, a.ranks, sampled)},
                         {"schedule", a.schedule},
                         {"rounds", schedule.rounds()},
                         {"coverage", schedule.coverage()},
                         {"matrices", to_string(scope)},
                         {"seconds",
                          {{"measure_own_row", measure_s},
                           {"report", reduce_s - peers_before_write},
                           {"write", write_s - write_peers},
                           {"simulating_peers", ranks.peer_seconds()}}},
                         {"peak_rss_mb", used.ru_maxrss / 1024}};
  if (a.as_rank == 0) add_verdict(line, mesh_report_json(reduced.report), mesh, sampled);
  std::cout << line.dump() << std::endl;
  return 0;
} catch (const Error& e) {
  std::cerr << "mesh_scale: " << e.what() << "\n";
  return static_cast<int>(e.exit_code());
} catch (const std::logic_error& e) {  // std::stoi's
  std::cerr << "mesh_scale: not a number (" << e.what() << ")\n";
  return static_cast<int>(ExitCode::kUsage);
} catch (const std::exception& e) {  // a bug: said, not an abort
  std::cerr << "mesh_scale: " << e.what() << "\n";
  return static_cast<int>(ExitCode::kInternal);
}
