// `rdmabench run` once its command line is parsed: probe this host, connect, run every
// benchmark through Google Benchmark, report.
#include <benchmark/benchmark.h>

#include <iostream>
#include <optional>

#include "core/clock.h"
#include "core/metrics_file.h"
#include "cq/strategy_registry.h"
#include "datapath/endpoint.h"
#include "host/device_probe.h"
#include "host/host_info.h"
#include "host/side_placement.h"
#include "runner/benchmark_filter.h"
#include "runner/fan_out_reporter.h"
#include "runner/limit_reporter.h"
#include "runner/results_reporter.h"
#include "runner/run_context.h"
#include "runner/run_metrics.h"
#include "runner/run_plan.h"
#include "runner/table_reporter.h"
#include "session/client_session.h"
#include "session/stop_signals.h"
#include "spec/spec_validation.h"
#include "verbs/device_list.h"

namespace rdmabench {

namespace {

// The default sizes over a one-packet transport stop at the path MTU, which the note names.
void note_sizes_cut(BenchmarkMatrix& matrix, const DeviceLimits& limits) {
  const uint64_t mtu = path_mtu_limit(matrix.base, limits);
  const std::vector<uint64_t> dropped = cut_sizes_to_mtu(matrix, mtu);
  if (matrix.patterns.empty())
    throw Error(ExitCode::kUsage, "over " + matrix.base.transport.name() +
                                      " no default size fits " + limits.device + "'s path MTU (" +
                                      std::to_string(mtu) + " B): give --sizes");
  if (!dropped.empty())
    std::cerr << "rdmabench: note: over " << matrix.base.transport.name()
              << " a message is one packet: the default sizes stop at " << limits.device
              << "'s path MTU, " << mtu << " B (give --sizes to choose)\n";
}

// --pattern all on a device that refuses some patterns (no atomics, no immediate data): those
// are left out, each said with its reason, before anything connects.
void leave_out_refused_patterns(BenchmarkMatrix& matrix, const DeviceLimits& limits) {
  for (const std::string& note : drop_refused_patterns(matrix, refusal_by(limits)))
    std::cerr << "rdmabench: note: --pattern all leaves out " << note << "\n";
}

LocalProbe probe_local(RunPlan& r) {
  BenchmarkMatrix& matrix = r.suite.matrix;
  PeerConnection& peer = r.suite.peer;
  // Before the bootstrap is chosen: rdma_cm with no device fails with a bare ENODEV.
  DeviceList list;
  if (list.empty()) throw Error(ExitCode::kNoDevice, no_device_advice());
  LocalProbe p{verify_clock(),
               SampleClock::choose(r.clock),
               timing_environment(),
               choose_bootstrap({r.cm, peer.address, peer.local.device, peer.timeout, r.oob_only,
                                 matrix.base.transport}),
               {},
               {},
               rdma_core_version()};
  matrix.base.bootstrap = p.choice.method;
  if (p.choice.method == Bootstrap::kOob)
    peer.local.device = p.choice.device;  // oob opens this one
  Context ctx = list.open(p.choice.device);
  const DeviceLimits limits = device_limits(ctx, peer.local.ib_port);  // refuses a port it lacks
  validate_local_device(peer.local, matrix.base.bootstrap, limits);
  if (matrix.sizes_to_mtu) note_sizes_cut(matrix, limits);
  leave_out_refused_patterns(matrix, limits);
  for (const TestSpec& spec : expand_specs(matrix)) {
    validate_spec(spec, limits);
    // This side's strategy on its own device, before connecting (the server checks its own).
    if (const std::string why = strategy_refusal(ctx, spec.cq.client); !why.empty())
      throw Error(ExitCode::kUsage, why);
  }
  p.device = describe_device(ctx);
  // Before any buffer is registered: this thread's memory policy is what they get.
  p.placement = place_this_side(p.choice.device, r.suite.placement);
  r.suite.placement.cpus = p.placement.placement.cpus;
  return p;
}

// The server's details, and the paths both sides' QPs really use: connects for the first
// benchmark and asks (the context is written before any benchmark runs). A failure here is
// left to that benchmark.
ServerFacts server_facts(ClientSession& session, const BenchmarkMatrix& matrix) {
  TestSpec first = matrix.base;
  first.bidir = false;  // one QP, one direction: enough to learn the path
  first.pattern = matrix.patterns.front().first;
  first.mode = matrix.modes.front();
  first.cq = matrix.cq_choices.front();
  first.size = matrix.patterns.front().second.front();
  ServerFacts facts{session.server(), std::nullopt, ""};
  try {
    session.setup(first);
    facts.paths = session.paths_in_use();
  } catch (const Error& e) {
    facts.path_error = e.what();
  }
  return facts;
}

// Google Benchmark takes the --benchmark_* flags, and writes --out as JSON.
// Google Benchmark keeps pointers into its argv (argv[0] goes into the context): it lives as
// long as the run.
struct GoogleBenchmarkArgs {
  std::vector<std::string> args;
  std::vector<char*> argv;
};
void initialize_google_benchmark(const RunPlan& r, GoogleBenchmarkArgs& gb) {
  gb.args = {"rdmabench-run"};
  for (const auto& u : r.benchmark_args) gb.args.push_back(u);
  if (!r.out_file.empty()) gb.args.push_back("--benchmark_out=" + r.out_file);
  for (auto& a : gb.args) gb.argv.push_back(a.data());
  int gb_argc = static_cast<int>(gb.argv.size());
  benchmark::Initialize(&gb_argc, gb.argv.data());
  if (gb_argc > 1)
    throw Error(ExitCode::kUsage,
                std::string("Google Benchmark did not take '") + gb.argv[1] +
                    "': no such Google Benchmark flag, or a value of the wrong type (its flags "
                    "include --benchmark_filter=REGEX, "
                    "--benchmark_repetitions=N and --benchmark_min_time=SECONDS)");
}

// Runs every registered benchmark through the reporters the plan asks for: the table, always
// (on standard error with --json or --output, whose results take standard output), --out's
// file, the
// --min-bw/--max-lat judge, and the results kept for --metrics (`collected`, when given).
// Returns whether the limits held (true when none were given).
bool run_reported(const RunPlan& r, const BenchmarkSuite& suite, const nlohmann::json& context,
                  std::string banner, std::optional<CollectedResults>& collected) {
  std::ostream& human = r.json_stdout || r.output ? std::cerr : std::cout;
  TableReporter table(human, std::move(banner), suite.specs(),
                      r.suite.reporting.report_every.count() > 0);
  LimitReporter limits(human, r.limits, suite.specs());
  std::optional<ResultsReporter> to_stdout, to_file;
  std::optional<FigureReporter> figures;
  std::vector<benchmark::BenchmarkReporter*> display{&table};
  if (r.json_stdout) display.push_back(&to_stdout.emplace(context, suite.specs()));
  if (r.output) display.push_back(&figures.emplace(std::cout, *r.output, suite.specs()));
  if (r.limits.any()) display.push_back(&limits);
  if (!r.metrics_file.empty()) display.push_back(&collected.emplace(context, suite.specs()));
  if (!r.out_file.empty()) to_file.emplace(context, suite.specs());
  FanOutReporter fan_out(display);
  benchmark::RunSpecifiedBenchmarks(&fan_out, to_file ? &*to_file : nullptr);
  return !r.limits.any() || limits.passed();
}

// --metrics: the results (null when the run ended before any benchmark) and the exit code as
// metrics, the file replaced whole. A file that cannot be written makes a run that passed exit
// kRuntime (the results are written already).
int write_metrics(const RunPlan& r, const nlohmann::json& results, int code,
                  std::optional<bool> limits_held) {
  const RunOutcome outcome{host_name(), r.suite.peer.address.host, code, limits_held,
                           unix_seconds_now()};
  return write_metrics_file(r.metrics_file, run_metrics(results, outcome), code, std::cerr,
                            "rdmabench");
}

// Everything after the command line: probe, connect, run, report. Returns the exit code.
int probe_connect_and_run(RunPlan& r) {
  // Every flag, and what the filter selects, is checked before the device and the server.
  GoogleBenchmarkArgs gb;
  initialize_google_benchmark(r, gb);
  count_selected(expand_specs(r.suite.matrix), r.suite.length, benchmark::GetBenchmarkFilter());
  const LocalProbe probe = probe_local(r);
  const PeerConnection& peer = r.suite.peer;
  auto session = connect_when_free(peer.address, peer.bootstrap_options(), peer.wait, std::cerr,
                                   peer.tls ? &*peer.tls : nullptr);
  const ServerFacts server = server_facts(*session, r.suite.matrix);
  if (!server.paths) session.reset();  // the server dropped that connection

  const StopSignals stop;
  r.suite.stop = &stop;
  r.suite.peer.wait.stop = &stop;
  r.suite.reporting.sample_clock = probe.sample_clock;
  BenchmarkSuite suite(r.suite, std::move(session));
  suite.register_benchmarks();
  std::optional<CollectedResults> collected;
  const bool within_limits =
      run_reported(r, suite, run_context(r, probe, server), banner(r, probe, server), collected);
  benchmark::Shutdown();
  if (!r.out_file.empty()) std::cerr << "rdmabench: results written to " << r.out_file << "\n";
  if (suite.worst() != ExitCode::kOk)
    std::cerr << "rdmabench: some benchmarks failed (marked ERROR above and in the JSON)\n";
  int code = static_cast<int>(suite.worst());
  if (suite.worst() == ExitCode::kOk && !within_limits)
    code = static_cast<int>(ExitCode::kLimitMissed);
  if (!collected) return code;
  return write_metrics(r, collected->document(), code,
                       r.limits.any() ? std::optional(within_limits) : std::nullopt);
}

}  // namespace

int run_benchmarks(RunPlan r) {
  try {
    return probe_connect_and_run(r);
  } catch (const Error& e) {  // no server, no device: what a monitoring system must hear of
    if (!r.metrics_file.empty())
      write_metrics(r, nullptr, static_cast<int>(e.exit_code()), std::nullopt);
    throw;
  }
}

}  // namespace rdmabench
