#include "mesh/mesh_job.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "core/bounded_json.h"
#include "core/bounded_read.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/fabric.h"
#include "core/metrics_file.h"
#include "core/output_file.h"
#include "core/printable_text.h"
#include "core/utc_now.h"
#include "core/version.h"
#include "host/device_address.h"
#include "host/device_probe.h"
#include "host/host_info.h"
#include "mesh/device_choice.h"
#include "mesh/host_identity.h"
#include "mesh/identity_check.h"
#include "mesh/matrix_sink.h"
#include "mesh/mesh_metrics.h"
#include "mesh/mesh_report_file.h"
#include "mesh/mesh_report_text.h"
#include "mesh/mpi_report_ranks.h"
#include "mesh/rank_place.h"
#include "mesh/rank_rows.h"
#include "mesh/reduce_report.h"
#include "mesh/repetitions.h"
#include "mesh/schedule.h"
#include "mesh/topology.h"
#include "mesh/traffic_job.h"
#include "mesh/traffic_report.h"
#include "session/background_server.h"

namespace rdmabench {

namespace {

using Clock = std::chrono::steady_clock;

// What of a failed rank's error the others print.
constexpr size_t kRankErrorExcerpt = 400;

// A host's k-th rank takes the k-th item of a per-host list; one item serves every rank.
std::string for_local_rank(const std::vector<std::string>& list, int local_rank,
                           const char* option) {
  if (list.empty()) return "";
  if (list.size() == 1) return list.front();
  if (static_cast<size_t>(local_rank) >= list.size())
    throw Error(ExitCode::kUsage, std::string("--") + option + " names " +
                                      std::to_string(list.size()) +
                                      " items, but this host has a rank " +
                                      std::to_string(local_rank) + " (counting from 0)");
  return list[static_cast<size_t>(local_rank)];
}

// The servers each rank runs: one, or a traffic plan's slots (Error(kUsage) for a plan the
// job cannot have, such as a bisection of an odd number of ranks).
int server_slots(const MpiWorld& world, const MeshRequest& job) {
  if (job.traffic == TrafficKind::kPairs) return 1;
  return TrafficPlan::make(job.traffic, world.size(), job.fan).slots();
}

// The port of this rank's server slot 0; Error(kUsage) when its last slot's is beyond 65535.
uint16_t first_port(const MpiWorld& world, const MeshRequest& job, int slots) {
  const int64_t last = job.port + int64_t{slots - 1} * world.local_size() + world.local_rank();
  if (last > 65535)
    throw Error(ExitCode::kUsage,
                "--port " + std::to_string(job.port) + ": this host's rank " +
                    std::to_string(world.local_rank()) + " would serve on " + std::to_string(last) +
                    ", beyond 65535 (a host's k-th rank serves on --port + k, and with "
                    "--traffic each further slot ranks-per-host above): give a lower --port");
  return static_cast<uint16_t>(job.port + world.local_rank());
}

// Gets this rank ready to take part: its identity, with its servers started in `servers`; or
// {"error", "exit_code"} when it cannot. Every rank contributes one, so that no rank waits
// for another that has already given up.
nlohmann::json join(const MpiWorld& world, const MeshRequest& job,
                    std::vector<std::unique_ptr<BackgroundServer>>& servers, std::ostream& log) {
  try {
    if (world.size() < 2)
      throw Error(ExitCode::kUsage,
                  "mesh needs at least 2 ranks, one per host: mpirun -np N --map-by node "
                  "rdmabench mesh ... or srun -N N rdmabench mesh ...");
    // Where --out goes must be writable before anything is measured (rank 0 only).
    if (world.rank() == 0 && !job.out_file.empty()) check_writable(job.out_file, "--out");
    if (world.rank() == 0 && !job.metrics_file.empty())
      check_writable(job.metrics_file, "--metrics");
    const RankDevice chosen =
        job.devices.empty()
            ? default_device_for(
                  world.local_rank(), world.local_size(), describe_all_devices(),
                  [](const std::string& netdev) { return netdev_ipv4(netdev).value_or(""); },
                  host_name())
            : RankDevice{"", "", "--device"};
    std::string address = for_local_rank(job.addresses, world.local_rank(), "address");
    if (address.empty()) address = chosen.address;
    if (address.empty()) address = first_ipv4_address();
    if (address.empty())
      throw Error(ExitCode::kUsage, "this host has no IPv4 address but loopback: give --address");
    const int slots = server_slots(world, job);
    const uint16_t port = first_port(world, job, slots);
    const std::string device = job.devices.empty()
                                   ? chosen.device
                                   : for_local_rank(job.devices, world.local_rank(), "device");
    nlohmann::json identity = host_identity(world.rank(), address, port, device);
    identity["device_choice"] = chosen.choice;
    if (slots > 1) identity["slot_stride"] = world.local_size();
    const RankPlace me = rank_place_of(identity);
    for (int slot = 0; slot < slots; ++slot) {
      ServerOptions options;
      options.port = static_cast<uint16_t>(port + slot * world.local_size());
      // the device's first ACTIVE port, and the rank's own --gid-index
      options.local = {me.device, me.ib_port, job.run.local.gid_index};
      options.timeout = job.run.timeout;
      options.tls = job.credentials.context(TlsContext::Role::kServer);
      servers.push_back(std::make_unique<BackgroundServer>(std::move(options), log));
    }
    return identity;
  } catch (const Error& e) {
    return {{"rank", world.rank()},
            {"error", e.what()},
            {"exit_code", static_cast<int>(e.exit_code())}};
  }
}

// Every rank's identity, by rank, as the report keeps it and as the job reaches the rank.
struct MetRanks {
  std::vector<MeshHost> hosts;
  std::vector<RankPlace> places;
};

// Every rank's identity, by rank; throws the first rank's failure on every rank.
MetRanks meet(const MpiWorld& world, const nlohmann::json& mine) {
  nlohmann::json hosts = nlohmann::json::array();
  for (const std::string& text : world.all_gather(mine.dump())) {
    hosts.push_back(
        parse_bounded_json(text, kMessageBounds, ExitCode::kConnection, "mesh: a rank's identity"));
    check_identity(hosts.back(), hosts.size() - 1);
  }
  for (const auto& h : hosts)
    if (h.contains("error"))
      throw Error(static_cast<ExitCode>(h["exit_code"].get<int>()),
                  "rank " + std::to_string(h["rank"].get<int>()) + ": " +
                      printable(h["error"].get<std::string>(), Keep::kUtf8, kRankErrorExcerpt));
  MetRanks met{mesh_hosts(hosts), {}};
  for (const auto& h : hosts) met.places.push_back(rank_place_of(h));
  return met;
}

// A file named on the command line as rank 0 reads it, on every rank; Error(kUsage) on every
// rank when rank 0 cannot read it or it is longer than `most` bytes.
std::string rank0_file(const MpiWorld& world, const std::string& path, const char* option,
                       size_t most) {
  std::string text;
  if (world.rank() == 0)  // unreadable: "\x01", told to every rank
    text = read_file_up_to(path, most + 1).value_or("\x01");
  text = world.broadcast(text, 0);
  if (text == "\x01")
    throw Error(ExitCode::kUsage,
                std::string(option) + ": cannot read " + peer_excerpt(path, 200) + " (on rank 0)");
  if (text.size() > most)
    throw Error(ExitCode::kUsage, std::string(option) + ": " + peer_excerpt(path, 200) +
                                      " is longer than " + std::to_string(most) + " bytes");
  return text;
}

// Which rounds, and the hosts' groups where --topology gives them: the same on every rank.
struct MeshPlan {
  MeshSchedule schedule;
  std::optional<MeshGroups> groups;
};

// Each rank's group by its host name or its address (every rank on a host shares its name).
MeshGroups groups_of(const MpiWorld& world, const MeshRequest& job,
                     const std::vector<RankPlace>& ranks) {
  std::istringstream in(rank0_file(world, job.topology_file, "--topology", kTopologyMaxBytes));
  const Topology topology = parse_topology(in, job.topology_file);
  std::vector<std::vector<std::string>> names;
  for (const RankPlace& r : ranks) names.push_back({r.hostname, r.address});
  auto [of_rank, group_names] = rank_groups(topology, names);
  return {std::move(of_rank), std::move(group_names)};
}

MeshPlan plan_of(const MpiWorld& world, const MeshRequest& job,
                 const std::vector<RankPlace>& ranks) {
  MeshPlan plan{MeshSchedule::shift(world.size()), std::nullopt};
  if (!job.topology_file.empty()) plan.groups = groups_of(world, job, ranks);
  if (!job.pairs_file.empty()) {
    std::istringstream in(rank0_file(world, job.pairs_file, "--pairs", kTopologyMaxBytes));
    plan.schedule =
        MeshSchedule::of_rounds(rounds_from_pairs(parse_pairs(in, world.size(), job.pairs_file)));
    return plan;
  }
  switch (*parse_schedule_kind(job.schedule)) {
    case ScheduleKind::kIsolated:
      plan.schedule = MeshSchedule::isolated(world.size());
      break;
    case ScheduleKind::kSampled: {
      const size_t rounds = job.sample_rounds ? job.sample_rounds
                                              : MeshSchedule::sample_rounds_to_cover(
                                                    plan.groups->names.size(), job.partners);
      plan.schedule = MeshSchedule::sampled(plan.groups->of_rank, job.partners, rounds);
      break;
    }
    default:
      break;
  }
  return plan;
}

// One round: this rank measures its pair, if it is a client in it.
void run_round(const MpiWorld& world, const TestSpec& spec, const MeshSchedule& schedule,
               size_t round, const std::vector<RankPlace>& ranks, const PairRunOptions& run,
               MatrixScope scope, std::vector<PairResult>& mine, std::ostream& log) {
  if (const auto to = schedule.server_of(world.rank(), round)) {
    const MeshPair p{world.rank(), *to};
    const RankPlace& server = ranks[static_cast<size_t>(p.server)];
    PairResult r = measure_pair({server.address, server.port}, spec, p, run, log);
    // Only what the report keeps: all of a pair's counters are 150 numbers, N of them a rank.
    r.counters = report_counters(std::move(r.counters), judged_figure(r.mode).counter, scope);
    mine.push_back(std::move(r));
  }
}

// Runs every benchmark's rounds, --repetitions times over; returns every run of the pairs
// this rank measured as their client.
std::vector<PairResult> run_rounds(const MpiWorld& world, const MeshRequest& job,
                                   const std::vector<RankPlace>& ranks, const MeshSchedule& rounds,
                                   std::ostream& log) {
  std::vector<PairResult> mine;
  const MatrixScope scope = parse_matrix_scope(job.matrices, static_cast<size_t>(world.size()));
  const size_t total = job.specs.size() * rounds.rounds() * job.repetitions;
  size_t step = 0;
  const auto started = Clock::now();
  for (const TestSpec& spec : job.specs) {
    const PairRunOptions run =
        rank_run_options(job, spec, ranks[static_cast<size_t>(world.rank())]);
    for (uint32_t r = 0; r < job.repetitions; ++r)
      for (size_t k = 0; k < rounds.rounds(); ++k) {
        world.barrier();  // every pair of the round starts together
        if (world.rank() == 0)
          std::cerr
              << "[" << ++step << "/" << total << "] " << spec.name() << ": "
              << (job.repetitions > 1 ? "repetition " + std::to_string(r + 1) + "/" +
                                            std::to_string(job.repetitions) + ", "
                                      : std::string())
              << "round " << k + 1 << "/" << rounds.rounds() << ", " << rounds.pairs_in(k)
              << " pairs at once ("
              << std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - started).count()
              << " s)\n"
              << std::flush;
        run_round(world, spec, rounds, k, ranks, run, scope, mine, log);
      }
  }
  world.barrier();  // no client is still connected to any server
  return mine;
}

nlohmann::json mesh_context(const MpiWorld& world, const MeshRequest& job, size_t rounds,
                            nlohmann::json coverage, MatrixScope scope) {
  return {
      {"schema", kMeshSchema},
      {"rdmabench_version", kVersion},
      {"date", utc_now_iso8601()},
      {"mpi", world.library()},
      {"ranks", world.size()},
      {"schedule", job.pairs_file.empty() ? job.schedule : "pairs:" + job.pairs_file},
      {"rounds", rounds},
      {"repetitions", job.repetitions},
      {"min_fraction", job.judge.min_fraction},
      {"max_resends_per_msg", job.judge.max_resends},
      {"matrices", to_string(scope)},
      {"bootstrap", to_string(job.specs.front().bootstrap)},
      // out of band: the timeout every QP gets; rdma_cm: --qp-timeout, or its own choice
      {"qp_timeout", job.specs.front().bootstrap == Bootstrap::kOob
                         ? nlohmann::json(job.specs.front().oob_qp_timeout())
                     : job.specs.front().qp_timeout ? nlohmann::json(*job.specs.front().qp_timeout)
                                                    : nlohmann::json(nullptr)},
      {"rdmabench_params", job.params},
      {"coverage", std::move(coverage)}};
}

// Each matrix's rows from every rank, at rank 0: into the file (--out) and, for a summary that
// prints the matrices, into the report. No stream at all when neither wants them.
void write_matrices(const MpiReportRanks& ranks, const MeshRequest& job, ReducedReport& reduced) {
  const size_t n = ranks.size();
  if (job.out_file.empty() && n > kPrintedMatrixUpTo) return;
  std::optional<MeshReportFile> file;
  std::optional<MatricesInReport> printed;
  if (ranks.rank() == 0 && !job.out_file.empty()) file.emplace(job.out_file, reduced.report, n);
  if (ranks.rank() == 0 && n <= kPrintedMatrixUpTo) printed.emplace(reduced.report);
  BothSinks sinks(file ? &*file : nullptr, printed ? &*printed : nullptr);
  stream_matrices(ranks, reduced, ranks.rank() == 0 ? &sinks : nullptr);
  if (!file) return;
  try {
    file->finish();
  } catch (const Error& e) {
    std::cerr << "rdmabench mesh: " << e.what() << "\n";
    return;
  }
  std::cerr << "rdmabench mesh: wrote " << job.out_file
            << (n > kInlineMatricesUpTo
                    ? " and its matrices in " + MeshReportFile::matrices_folder(job.out_file)
                    : std::string())
            << "\n";
}

// --metrics at rank 0: the report's verdict (none: the mesh ended before one) and the exit
// code, the file replaced whole. A file that cannot be written makes a clean mesh exit kRuntime.
int write_metrics(const MeshRequest& job, const std::vector<MetricFamily>& metrics, int code) {
  if (job.metrics_file.empty()) return code;
  return write_metrics_file(job.metrics_file, metrics, code, std::cerr, "rdmabench mesh");
}

// The report reduced over the ranks from each one's own rows (no rank gathers the others'
// pairs): rank 0 prints it and writes it; every rank returns the verdict's exit code.
int report(const MpiWorld& world, const MeshRequest& job, std::vector<MeshHost> hosts,
           const MeshPlan& plan, std::vector<PairResult> mine) {
  const auto n = static_cast<size_t>(world.size());
  const MatrixScope scope = parse_matrix_scope(job.matrices, n);
  std::vector<BenchmarkName> benchmarks;
  for (const TestSpec& spec : job.specs) benchmarks.emplace_back(spec.name(), to_string(spec.mode));
  const RankRows rows =
      rank_rows(world.rank(), n, benchmarks, best_of_repetitions(std::move(mine)), scope);
  const MpiReportRanks ranks(world, rows);
  ReducedReport reduced;
  try {
    reduced = reduce_mesh_report(
        ranks, benchmarks,
        mesh_context(world, job, plan.schedule.rounds(), plan.schedule.coverage(), scope),
        std::move(hosts), job.judge, plan.groups ? &*plan.groups : nullptr);
    write_matrices(ranks, job, reduced);
  } catch (const Error& e) {  // the other ranks wait in a reduction this rank has left
    std::cerr << "rdmabench mesh: rank " << world.rank() << ": " << e.what()
              << "; ending the job\n";
    world.abort(static_cast<int>(e.exit_code()));
  }
  int code = 0;
  if (world.rank() == 0) {
    print_mesh_report(reduced.report, std::cout);
    code = reduced.report.verdict.exit_code;
    code = write_metrics(job, mesh_metrics(&reduced.report, code, unix_seconds_now()), code);
  }
  return world.broadcast(code, 0);
}

// The job with --cm auto settled from every rank's fabric (the same on every rank).
MeshRequest settled(const MeshRequest& job, const std::vector<RankPlace>& ranks) {
  MeshRequest out = job;
  std::vector<std::string> fabrics;
  for (const RankPlace& r : ranks) fabrics.push_back(r.fabric);
  settle_mesh_bootstrap(out, fabrics);
  return out;
}

// --traffic: the plan's rounds, the report printed and written at rank 0; every rank returns
// the verdict's exit code.
int traffic_mesh(const MpiWorld& world, const MeshRequest& job, const MetRanks& met,
                 std::ostream& log) {
  const TrafficPlan plan = TrafficPlan::make(job.traffic, world.size(), job.fan);
  nlohmann::json context = mesh_context(world, job, plan.rounds(), nullptr, MatrixScope::kHeatmaps);
  context["schedule"] = "traffic:" + to_string(plan.kind());
  context.erase("matrices");
  if (world.rank() == 0)
    std::cerr << "rdmabench mesh: " << world.size() << " ranks, traffic " << to_string(plan.kind())
              << ", " << plan.rounds() << " rounds (" << world.library() << ")\n";
  const std::optional<TrafficReport> report =
      run_traffic(world, job, plan, {met.places, met.hosts, std::move(context)}, log);
  int code = 0;
  if (report) {
    print_traffic_report(*report, std::cout);
    code = report->verdict.exit_code;
    if (!job.out_file.empty())  // --out: the report whole, or a passing mesh exits kRuntime
      code = write_output_file(job.out_file,
                               traffic_report_json(*report).dump(
                                   2, ' ', false, nlohmann::json::error_handler_t::replace) +
                                   "\n",
                               "--out", code, std::cerr, "rdmabench mesh");
    code = write_metrics(job, traffic_metrics(&*report, code, unix_seconds_now()), code);
  }
  return world.broadcast(code, 0);
}

}  // namespace

int run_mesh_job(const MpiWorld& world, const MeshRequest& requested) {
  std::ostream quiet(nullptr);
  std::ostream& log = requested.verbose ? std::cerr : quiet;
  std::vector<std::unique_ptr<BackgroundServer>> servers;  // stopped (and joined) last
  const nlohmann::json identity = join(world, requested, servers, log);
  try {
    const MetRanks met = meet(world, identity);
    const MeshRequest job = settled(requested, met.places);
    if (job.traffic != TrafficKind::kPairs) return traffic_mesh(world, job, met, log);
    std::vector<MeshHost> hosts = met.hosts;
    const MeshPlan plan = plan_of(world, job, met.places);
    if (plan.groups)
      for (size_t r = 0; r < hosts.size(); ++r)
        hosts[r].group = plan.groups->names.at(static_cast<size_t>(plan.groups->of_rank[r]));
    const MeshSchedule& rounds = plan.schedule;
    if (world.rank() == 0)
      std::cerr << "rdmabench mesh: " << world.size() << " ranks, " << rounds.rounds()
                << " rounds per benchmark (" << world.library() << ")\n";
    return report(world, job, std::move(hosts), plan,
                  run_rounds(world, job, met.places, rounds, log));
  } catch (const Error& e) {
    if (world.rank() != 0) return static_cast<int>(e.exit_code());
    std::cerr << "rdmabench mesh: " << e.what() << "\n";
    const int code = static_cast<int>(e.exit_code());
    return write_metrics(requested, mesh_metrics(nullptr, code, unix_seconds_now()), code);
  }
}

}  // namespace rdmabench
