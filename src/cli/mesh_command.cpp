// `rdmabench mesh`: its options; the job itself is src/mesh/mesh_job.cpp.
#include "cli/mesh_command.h"

#include "cli/parse_error.h"
#include "cli/repeated_options.h"

#include <algorithm>
#include <chrono>
#include <cxxopts.hpp>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "bench/pattern_catalogue.h"
#include "cli/channel_security_options.h"
#include "cli/list_option.h"
#include "cli/number_options.h"
#include "cli/option_checks.h"
#include "cli/path_options.h"
#include "cli/unknown_options.h"
#include "core/comma_list.h"
#include "core/error.h"
#include "core/exit_codes.h"
#include "core/peer_address.h"
#include "core/printable_text.h"
#include "cq/strategy.h"
#include "mesh/mesh_job.h"
#include "mesh/mesh_preview.h"
#include "mesh/report_scope.h"
#include "mesh/schedule.h"
#include "mesh/traffic.h"
#include "session/control_protocol.h"
#include "spec/benchmark_matrix.h"
#include "spec/matrix_refusal.h"
#include "spec/pattern_info.h"
#include "spec/spec_validation.h"

namespace rdmabench {

using namespace std::chrono_literals;

namespace {

// The most ranks a dry run plans for (a shift schedule of 65,536 ranks has 4 billion pairs).
constexpr uint32_t kMaxDryRunRanks = 65536;

// What each pair measures.
void add_mesh_measurement(cxxopts::Options& options) {
  options.add_options("What each pair measures")(
      "pattern", "One of: " + pattern_names(),
      cxxopts::value<std::string>()->default_value("write"))(
      "mode", "bw, lat, bw,lat or all (both)",
      cxxopts::value<std::string>()->default_value("bw,lat"))(
      "size", "bw message size", cxxopts::value<std::string>()->default_value("64K"))(
      "lat-size", "lat message size", cxxopts::value<std::string>()->default_value("2"))(
      "iters", "bw messages per pair", cxxopts::value<std::string>()->default_value("1000"),
      "COUNT")("lat-iters", "lat round trips per pair",
               cxxopts::value<std::string>()->default_value("1000"), "COUNT")(
      "tx-depth",
      "Outstanding send work requests of each pair or flow (bw; as run --tx-depth): what a "
      "flow keeps queued at a slow link",
      cxxopts::value<std::string>()->default_value("128"), "COUNT")(
      "cq",
      "Completion strategy, as for rdmabench run (busy, event, client=busy,server=event, ...)",
      cxxopts::value<std::string>()->default_value("busy"))(
      "warmup", "Messages run before each pair's timing starts",
      cxxopts::value<std::string>()->default_value("16"),
      "COUNT")("verify", "Check every message of each pair in an untimed run after its timed one")(
      "validate",
      "Check every byte of every message inside each pair's timed run, as run --validate does "
      "(the figures pay for the checks; write bw's target spins checking each write as it "
      "lands)");
}

// Which pairs when, and how they are judged.
void add_mesh_schedule(cxxopts::Options& options) {
  options.add_options("Schedule and verdict")(
      "schedule",
      "shift: N-1 rounds, in round d rank i measures towards i+d, all pairs at once; isolated: "
      "one pair at a time; sampled (with --topology): every pair within a group, and "
      "--partners ranks of other groups per rank and sampling round",
      cxxopts::value<std::string>()->default_value("shift"))(
      "pairs", "FILE of 'CLIENT SERVER' rank pairs, one a line, instead of --schedule",
      cxxopts::value<std::string>())(
      "topology",
      "FILE placing each host in a group (a rack, a leaf switch): 'HOST GROUP' lines, or "
      "Slurm's topology.conf (each switch's Nodes=); read by rank 0",
      cxxopts::value<std::string>())(
      "partners",
      "--schedule sampled: ranks of other groups each rank measures towards per sampling round",
      cxxopts::value<std::string>()->default_value("1"), "COUNT")(
      "sample-rounds",
      "--schedule sampled: sampling rounds (default: enough to cover every ordered pair of "
      "groups once, (groups - 1) / partners rounded up)",
      cxxopts::value<std::string>(),
      "COUNT")("min-fraction",
               "A pair is slow below this fraction of the median bandwidth (above median / it for "
               "latency); exit 7 when any is",
               cxxopts::value<std::string>()->default_value("0.8"), "NUMBER")(
      "repetitions",
      "Run the whole schedule this many times; each pair is judged on its best run, and the "
      "report gives its worst and the spread (1..100)",
      cxxopts::value<std::string>()->default_value("1"), "COUNT")(
      "max-resends",
      "A pair whose wire resent more than this per message (retransmissions and out-of-sequence "
      "packets, both sides' port counters) is flagged, whatever its bandwidth; exit 7 when any "
      "is",
      cxxopts::value<std::string>()->default_value("0.01"), "NUMBER");
}

// --schedule, --pairs, and the sampled schedule's --topology, --partners, --sample-rounds.
void parse_schedule_options(const cxxopts::ParseResult& args, MeshRequest& r) {
  r.schedule = args["schedule"].as<std::string>();
  const auto kind = parse_schedule_kind(r.schedule);
  if (!kind)
    throw Error(ExitCode::kUsage, "--schedule: unknown '" + peer_excerpt(r.schedule) +
                                      "' (shift, isolated, sampled)");
  if (args.count("pairs")) {
    if (args.count("schedule"))
      throw Error(ExitCode::kUsage, "give --schedule or --pairs FILE, not both");
    r.pairs_file = args["pairs"].as<std::string>();
  }
  if (args.count("topology")) r.topology_file = args["topology"].as<std::string>();
  if (*kind == ScheduleKind::kSampled && r.topology_file.empty())
    throw Error(ExitCode::kUsage,
                "--schedule sampled needs --topology FILE: which group (rack) each host is in");
  r.partners = count_option32(args, "partners", 1, 1024);
  if (args.count("sample-rounds")) r.sample_rounds = count_option32(args, "sample-rounds", 1);
  if (*kind != ScheduleKind::kSampled && (args.count("partners") || args.count("sample-rounds")))
    throw Error(ExitCode::kUsage, "--partners and --sample-rounds go with --schedule sampled");
}

// --traffic: many flows at once instead of the schedule's pairs.
void add_mesh_traffic(cxxopts::Options& options) {
  options.add_options("Traffic patterns")(
      "traffic",
      "pairs: the --schedule's pairs, each rank in at most one pair each way at a time; or many "
      "flows at once, as a job's collectives load a fabric: incast (in each round --fan ranks "
      "send into one), fan-out (one rank sends to --fan), all-to-all (every rank to --fan "
      "others), bisection (each half to the other, both ways, two pairings), ring (each rank to "
      "the next, then to the one after it). Each host is judged on its NIC's best round (sent + "
      "received) against the "
      "median; bw only",
      cxxopts::value<std::string>()->default_value("pairs"))(
      "fan",
      "--traffic incast, fan-out, all-to-all: flows into or out of one rank at once (default: "
      "every other rank, at most 64)",
      cxxopts::value<std::string>(),
      "COUNT")("streams", "QPs in each pair or flow (as run --qps), 1..64",
               cxxopts::value<std::string>()->default_value("1"), "COUNT")(
      "duration",
      "--traffic: each flow's timed window (2s, 500ms); a round's flows run theirs at once",
      cxxopts::value<std::string>()->default_value("2s"),
      "TIME")("margin",
              "--traffic: time each flow runs before and after its window, so that every window "
              "lies inside the others' traffic",
              cxxopts::value<std::string>()->default_value("500ms"), "TIME");
}

// --traffic and what goes with it; refuses what a traffic plan does not use.
void parse_traffic_options(const cxxopts::ParseResult& args, MeshRequest& r) {
  const std::string word = args["traffic"].as<std::string>();
  const auto kind = parse_traffic_kind(word);
  if (!kind)
    throw Error(ExitCode::kUsage,
                "--traffic: unknown '" + peer_excerpt(word) + "' (" + traffic_kind_names() + ")");
  r.traffic = *kind;
  if (args.count("fan")) {
    if (!TrafficPlan::has_fan(r.traffic))
      throw Error(ExitCode::kUsage, "--fan goes with --traffic incast, fan-out or all-to-all");
    r.fan = static_cast<int>(count_option(args, "fan", 1, kMaxFan));  // and below the ranks
  }
  if (r.traffic == TrafficKind::kPairs) {
    for (const char* option : {"duration", "margin"})
      if (args.count(option))
        throw Error(ExitCode::kUsage, std::string("--") + option +
                                          " goes with --traffic incast, fan-out, all-to-all, "
                                          "bisection or ring (pairs run --iters messages)");
    return;
  }
  for (const char* option : {"schedule", "pairs", "topology", "iters", "lat-iters", "lat-size"})
    if (args.count(option))
      throw Error(ExitCode::kUsage, "--traffic " + word + " runs its own rounds for --duration: " +
                                        "leave out --" + option);
  r.run.length.duration_ns =
      static_cast<uint64_t>(time_option(args, "duration", {10ms, 1h, 1ms}).count());
  r.run.length.margin_ns =
      static_cast<uint64_t>(time_option(args, "margin", {0ms, 60s, 1ms}).count());
}

// Where each rank serves, its device and path.
void add_mesh_connection(cxxopts::Options& options) {
  options.add_options("Ranks and connections")(
      "p,port", "TCP control port; a host's k-th rank serves on port + k",
      cxxopts::value<std::string>()->default_value(std::to_string(kDefaultControlPort)),
      "N")("d,device", "RDMA device; a list gives a host's k-th rank the k-th (default: the first)",
           cxxopts::value<std::string>())(
      "address",
      "Address the other ranks reach this rank's server at; a list gives a host's k-th rank the "
      "k-th (default: this host's first IPv4 address that is not loopback)",
      cxxopts::value<std::string>())("gid-index",
                                     "GID index (default: as `rdmabench devices` marks it)",
                                     cxxopts::value<std::string>(), "N")(
      "cm",
      "auto: oob, unless a rank's device connects through rdma_cm only (iWARP), then rdmacm; "
      "oob: each pair exchanges its QPs over TCP; rdmacm: rdma_cm, the client resolving from "
      "its own --address (so that rdma_cm takes the rank's own device)",
      cxxopts::value<std::string>()->default_value("auto"))(
      "timeout", "Time any blocking step may take (5s, 500ms)",
      cxxopts::value<std::string>()->default_value("5s"), "TIME");
  add_path_options(options, "Ranks and connections");
}

cxxopts::Options mesh_options() {
  cxxopts::Options options(
      "rdmabench mesh",
      "All-pairs fabric check. Launch one rank per host: mpirun -np N --map-by node rdmabench "
      "mesh ... or srun -N N rdmabench mesh .... Every rank serves on its port and measures "
      "towards the others as the schedule says; rank 0 prints the N x N matrices and names "
      "slow pairs and hosts, and writes them with --out. MPI is used only to meet and gather; "
      "every figure is measured over verbs.");
  add_mesh_measurement(options);
  add_mesh_schedule(options);
  add_mesh_traffic(options);
  add_mesh_connection(options);
  options.add_options("Report")("out",
                                "Write the report (matrices, hosts, verdict) as JSON to FILE",
                                cxxopts::value<std::string>())(
      "metrics",
      "Write the verdict as OpenMetrics text to FILE at rank 0, replaced whole: the verdict's "
      "counts, each benchmark's median, and each host's slow, resending and differing gauges "
      "(for node_exporter's textfile collector: name it *.prom in its directory)",
      cxxopts::value<std::string>())(
      "matrices",
      "Which counters the report keeps as N x N matrices: all (every counter a pair reports, "
      "both sides' port counters too), heatmaps (what the verdicts and tools/plot's heatmaps "
      "use: the judged figure, resends per message, p99 latency, each side's CPU per message, "
      "the repetitions' spread), or auto: all up to 64 ranks, heatmaps beyond (a 1024-rank "
      "report of every counter would take gigabytes)",
      cxxopts::value<std::string>()->default_value("auto"))("verbose", "Log every rank's server")(
      "dry-run",
      "Print what the job would run on --ranks ranks (each mode's benchmark and length, the "
      "rounds, an estimate), then exit: no MPI, no device, no server")(
      "ranks", "--dry-run: the ranks to plan for (mpirun's -np, srun's tasks)",
      cxxopts::value<std::string>(), "COUNT")("h,help", "Show help");
  add_channel_security(options, "Ranks and connections", ChannelSide::kMeshRank);
  return options;
}

uint64_t one_size(const std::string& text, const char* option) {
  const auto sizes = parse_sizes(text, std::string("--") + option);
  if (sizes.size() != 1)
    throw Error(ExitCode::kUsage,
                std::string("--") + option + " takes one size, not '" + text + "'");
  return sizes.front();
}

// The request of one mode's benchmark, as run's: the pattern at the mode's size, the streams
// as QPs, the path's options.
BenchmarkMatrix mesh_matrix(const cxxopts::ParseResult& args, Pattern pattern, Mode mode) {
  BenchmarkMatrix m;
  const char* size_option = mode == Mode::kLatency ? "lat-size" : "size";
  const uint64_t size = one_size(args[size_option].as<std::string>(), size_option);
  m.patterns = {{pattern, {size}}};
  m.sizes = {size};
  m.modes = {mode};
  m.cq_choices = {parse_cq_choice(args["cq"].as<std::string>())};
  m.qps = {count_option32(args, "streams", 1, 64)};
  m.base.verify = args.count("verify") > 0;
  m.base.validate = args.count("validate") > 0;
  m.base.tx_depth = count_option32(args, "tx-depth", 1);
  read_path_options(args, m.base);
  const auto cm = parse_bootstrap(args["cm"].as<std::string>());
  if (!cm && args["cm"].as<std::string>() != "auto")
    throw Error(ExitCode::kUsage,
                "--cm: unknown '" + args["cm"].as<std::string>() + "' (auto, oob, rdmacm)");
  m.base.bootstrap = cm.value_or(Bootstrap::kOob);  // auto: settled once every rank is known
  return m;
}

// One benchmark per mode, each checked as run checks its own (matrix_refusal; the device's
// limits are checked by each pair's setup).
std::vector<TestSpec> mesh_specs(const cxxopts::ParseResult& args, bool traffic) {
  const auto pattern = parse_pattern(lower_case(args["pattern"].as<std::string>()));
  if (!pattern)
    throw Error(ExitCode::kUsage, "--pattern: unknown '" + args["pattern"].as<std::string>() +
                                      "' (" + pattern_names() + ")");
  std::vector<TestSpec> specs;
  const std::string modes = traffic && !args.count("mode") ? "bw" : args["mode"].as<std::string>();
  for (const Mode mode :
       parse_list<Mode>(modes, parse_mode, {Mode::kBandwidth, Mode::kLatency}, "mode", "bw, lat")) {
    if (traffic && mode != Mode::kBandwidth)
      throw Error(ExitCode::kUsage,
                  "--traffic measures bandwidth: give --mode bw (or leave it out)");
    const BenchmarkMatrix m = mesh_matrix(args, *pattern, mode);
    if (std::string why = matrix_refusal(m); !why.empty()) throw Error(ExitCode::kUsage, why);
    specs.push_back(expand_specs(m).front());
  }
  if (specs.empty()) throw Error(ExitCode::kUsage, "--mode is empty");
  return specs;
}

// --dry-run's ranks (0 without --dry-run); Error(kUsage) for --ranks alone, or a dry run
// without it.
int dry_run_ranks(const cxxopts::ParseResult& args) {
  if (!args.count("dry-run")) {
    if (args.count("ranks"))
      throw Error(ExitCode::kUsage,
                  "--ranks goes with --dry-run (a job's ranks are mpirun's -np or srun's tasks)");
    return 0;
  }
  if (!args.count("ranks"))
    throw Error(ExitCode::kUsage, "--dry-run needs --ranks COUNT: the ranks to plan for");
  return static_cast<int>(count_option32(args, "ranks", 2, kMaxDryRunRanks));
}

// mpirun's -np (or srun's -N) given to rdmabench mesh, which would read it as -n and -p.
void refuse_launchers_options(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]) == "-np" || std::string_view(argv[i]) == "--np")
      throw Error(ExitCode::kUsage,
                  std::string(argv[i]) +
                      " is mpirun's: the launcher starts the ranks "
                      "(mpirun -np 4 rdmabench mesh ..., or srun -n 4 rdmabench mesh ...); "
                      "rdmabench mesh takes its ranks from MPI (--dry-run --ranks N plans for N)");
}

void parse_run_options(const cxxopts::ParseResult& args, MeshRequest& r) {
  r.iterations[Mode::kBandwidth] = iterations_option(args, "iters");
  r.iterations[Mode::kLatency] = iterations_option(args, "lat-iters");
  r.run.timeout = timeout_option(args);
  if (args.count("gid-index")) r.run.local.gid_index = gid_index_option(args);
  r.run.wait = 2 * r.run.timeout;
  r.run.length.warmup = warmup_option(args);
}

}  // namespace

// Parse and validate; nullopt after --help. Touches neither MPI nor a device.
std::optional<MeshRequest> parse_mesh_request(int argc, char** argv) {
  cxxopts::Options options = mesh_options();
  refuse_launchers_options(argc, argv);
  cxxopts::ParseResult args;
  try {
    options.allow_unrecognised_options();
    args = options.parse(argc, argv);
  } catch (const cxxopts::exceptions::exception& e) {
    throw Error(ExitCode::kUsage, explain_parse_error(e.what(), argc, argv) + " (see --help)");
  }
  if (args.count("help")) {
    std::cout << options.help() << "\n" << value_spellings_help() << "\n" << exit_status_help();
    return std::nullopt;
  }
  refuse_repeated_options(options, args);
  check_unmatched(args.unmatched(), options, {"mesh"});
  MeshRequest r;
  parse_traffic_options(args, r);
  r.specs = mesh_specs(args, r.traffic != TrafficKind::kPairs);
  r.cm = parse_bootstrap(args["cm"].as<std::string>());  // nullopt: auto
  parse_run_options(args, r);
  if (r.cm) validate_local_device(r.run.local, *r.cm);  // auto: once every rank is known
  uint32_t latency_threads = 0;  // the most of any latency benchmark: the host is read once
  for (const TestSpec& spec : r.specs)
    if (spec.mode == Mode::kLatency) latency_threads = std::max(latency_threads, spec.threads);
  if (latency_threads > 0)
    check_latency_samples({r.iterations[Mode::kLatency], 0, 0, r.run.length.warmup},
                          latency_threads, "--lat-iters");
  parse_schedule_options(args, r);
  r.judge.min_fraction = decimal_option(args, "min-fraction", 0, 1);
  if (r.judge.min_fraction == 0)
    throw Error(ExitCode::kUsage, "--min-fraction must be above 0 (a fraction of the median)");
  r.repetitions = count_option32(args, "repetitions", 1, 100);
  r.judge.max_resends = decimal_option(args, "max-resends", 0, 1e6);  // resends per message
  r.port = port_option(args);
  r.devices = split_comma_list(text_option(args, "device"));
  r.addresses = split_comma_list(text_option(args, "address"));
  if (args.count("out")) r.out_file = args["out"].as<std::string>();
  if (args.count("metrics"))  // checked for writing at rank 0 (mesh_job.cpp)
    r.metrics_file = metrics_option(args["metrics"].as<std::string>(), false);
  r.matrices = args["matrices"].as<std::string>();
  parse_matrix_scope(r.matrices, 0);  // a bad word fails here, on every rank, before MPI
  r.verbose = args.count("verbose") > 0;
  r.credentials = channel_security_of(args);
  for (const auto& kv : args.arguments()) r.params[kv.key()] = kv.value();
  r.dry_run_ranks = dry_run_ranks(args);
  return r;
}

int run_mesh_command(int argc, char** argv) {
  const auto job = parse_mesh_request(argc, argv);
  if (!job) return 0;
  if (job->dry_run_ranks > 0) {
    std::cout << mesh_preview(*job, job->dry_run_ranks);
    return 0;
  }
  const MpiWorld world(argc, argv);
  return run_mesh_job(world, *job);
}

}  // namespace rdmabench
