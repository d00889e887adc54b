#include "cli/run_request.h"

#include <algorithm>
#include <chrono>
#include <iostream>

#include "bench/pattern_catalogue.h"
#include "cli/cpus_option.h"
#include "cli/list_option.h"
#include "cli/number_options.h"
#include "cli/option_checks.h"
#include "cli/path_options.h"
#include "cli/repeated_options.h"
#include "cli/run_options.h"
#include "cli/run_params.h"
#include "cli/run_profile.h"
#include "cli/server_connection.h"
#include "cli/skip_notes.h"
#include "cli/unknown_options.h"
#include "core/comma_list.h"
#include "core/exit_codes.h"
#include "core/output_file.h"
#include "core/printable_text.h"
#include "host/machine_type.h"
#include "runner/machine_limits.h"
#include "runner/suite_preview.h"
#include "spec/matrix_refusal.h"
#include "spec/spec_validation.h"

namespace rdmabench {

using namespace std::chrono_literals;

namespace {

// --qps, --post-list, --threads, --cq-per-qp, --bidir.
void parse_scale_out(const cxxopts::ParseResult& args, BenchmarkMatrix& m) {
  m.qps = parse_qps(args["qps"].as<std::string>());
  const auto chains = parse_number_list(args["post-list"].as<std::string>(), "post-list", 1,
                                        kMaxPostList, "a chain length (examples: 8, 1,2,4,8)");
  m.post_lists.assign(chains.begin(), chains.end());
  m.threads = count_option32(args, "threads", 1, kMaxThreads);
  m.base.cq_per_qp = args.count("cq-per-qp") > 0;
  m.base.bidir = args.count("bidir") > 0;
}

// --cpus, --numa.
PlacementRequest placement_of(const cxxopts::ParseResult& args) {
  PlacementRequest placement;
  if (args.count("cpus")) placement.cpus = parse_cpu_list(args["cpus"].as<std::string>());
  if (args.count("numa")) placement.numa = numa_option(args["numa"].as<std::string>());
  return placement;
}

// --iters (or the profile's), --duration, --margin, --warmup.
RunLength length_of(const cxxopts::ParseResult& args, const WhatToRun& what) {
  RunLength length;
  if (args.count("iters")) length.iterations = iterations_option(args, "iters");
  if (what.iters) length.iterations = *what.iters;
  if (args.count("margin") && !args.count("duration"))
    throw Error(ExitCode::kUsage,
                "--margin needs --duration (it is run before and after a timed window)");
  if (args.count("duration")) {
    if (args.count("iters")) throw Error(ExitCode::kUsage, "give --iters or --duration, not both");
    // The run message carries both in whole milliseconds.
    length.duration_ns = static_cast<uint64_t>(
        time_option(args, "duration", {1ms, std::chrono::milliseconds(kMaxDurationMs), 1ms})
            .count());
    length.margin_ns = static_cast<uint64_t>(
        time_option(args, "margin", {0ms, std::chrono::milliseconds(kMaxMarginMs), 1ms}).count());
  }
  length.warmup = warmup_option(args);
  return length;
}

// --pattern against --sizes: each pattern runs the sizes its rule accepts. A named pattern
// with a size it refuses is an error; `all` leaves such pairs out and says so.
void parse_patterns(const std::string& text, BenchmarkMatrix& matrix) {
  const auto named =
      parse_list<Pattern>(text, parse_pattern, registered_patterns(), "pattern", pattern_names());
  PatternSizes expanded =
      expand_patterns(named, matrix.sizes, matrix.base.transport, matrix.base.srq, text == "all");
  const std::vector<std::string> notes = skip_notes(expanded);
  matrix.patterns = std::move(expanded.runs);
  matrix.all_patterns = text == "all";
  for (const std::string& note : notes)
    std::cerr << "rdmabench: note: --pattern all leaves out " << note << "\n";
}

ClockChoice clock_option(const std::string& text) {
  if (text == "auto") return ClockChoice::kAuto;
  if (text == "tsc") return ClockChoice::kTsc;
  if (text == "monotonic") return ClockChoice::kMonotonic;
  throw Error(ExitCode::kUsage, "--clock: unknown '" + text + "' (auto, tsc, monotonic)");
}

// The benchmarks asked for: what runs, at which sizes and rates, scaled out how.
// The quick profile's pattern is settled here, once the transport is known.
void parse_matrix(const cxxopts::ParseResult& args, WhatToRun& what, BenchmarkMatrix& m) {
  m.modes = parse_list<Mode>(what.mode, parse_mode, {Mode::kBandwidth, Mode::kLatency}, "mode",
                             "bw, lat");
  m.cq_choices = parse_cq_choices(what.cq);
  m.sizes = parse_sizes(what.sizes);
  // perftest says RC, UC, UD; a name is taken in any case, as every option's
  const auto transport = parse_transport(lower_case(args["transport"].as<std::string>()));
  if (!transport)
    throw Error(ExitCode::kUsage, "--transport: unknown '" + args["transport"].as<std::string>() +
                                      "' (" + transport_names() + ")");
  m.base.transport = *transport;
  m.base.srq = args.count("srq") > 0;  // before the patterns: it leaves some out
  if (m.base.transport->one_packet_messages && args.count("sizes") == 0) {
    m.sizes_to_mtu = true;  // the rest is cut at the device's MTU once it is open
    std::erase_if(m.sizes, [](uint64_t size) { return size > kLargestMtu; });
  }
  if (!what.pattern_given && what.profile == "quick")
    what.pattern = quick_pattern(m.base.transport, m.base.srq);
  parse_patterns(what.pattern, m);
  parse_scale_out(args, m);
  if (args.count("load") && args.count("rate"))
    throw Error(ExitCode::kUsage,
                "--rate (each QP's) and --load (every QP's together) say the same thing: give one");
  m.rates = args.count("load") ? parse_loads(args["load"].as<std::string>(), m.qps)
                               : parse_rates(args["rate"].as<std::string>());
}

// --counters; --report-every once the modes are known.
SuiteReporting reporting_of(const cxxopts::ParseResult& args, const BenchmarkMatrix& m) {
  SuiteReporting reporting;
  const std::string counters = args["counters"].as<std::string>();
  if (counters != "on" && counters != "off")
    throw Error(ExitCode::kUsage, "--counters: unknown value '" + counters + "' (on or off)");
  reporting.device_counters = counters == "on";
  if (args.count("report-every")) {
    reporting.report_every = std::chrono::duration_cast<std::chrono::milliseconds>(
        time_option(args, "report-every", {100ms, 1h, 1ms}));
    if (!m.runs(Mode::kBandwidth))
      throw Error(ExitCode::kUsage,
                  "--report-every reports bw runs as they go, and --mode lat runs none");
  }
  return reporting;
}

// Every part of the request, each from its own options.
void parse_suite_options(const cxxopts::ParseResult& args, const ServerConnection& server,
                         WhatToRun& what, SuiteOptions& so) {
  so.peer = server.peer();
  parse_matrix(args, what, so.matrix);
  so.length = length_of(args, what);
  if (so.matrix.runs(Mode::kLatency))
    check_latency_samples(so.length, so.matrix.threads, "--iters");
  so.placement = placement_of(args);
  so.debug_corrupt = args.count("debug-corrupt") > 0;
}

// An option given that only the out-of-band bootstrap honours: the connection's (--ib-port),
// else the path's (oob_only_run_options).
std::optional<OobOnly> oob_only_option(const cxxopts::ParseResult& args,
                                       const ServerConnection& server) {
  if (auto only = oob_only_option(server)) return only;
  for (const OobOnlyRunOption& o : oob_only_run_options())
    if (args.count(o.option)) return OobOnly{std::string("--") + o.option, o.why};
  return std::nullopt;
}

void parse_base_spec(const cxxopts::ParseResult& args, TestSpec& base) {
  base.tx_depth = count_option32(args, "tx-depth", 1);
  base.rx_depth = count_option32(args, "rx-depth", 1);
  base.signal_every = count_option32(args, "signal-every", 1);
  base.poll_batch = count_option32(args, "poll-batch", 1, kMaxPollBatch);
  base.verify = args.count("verify") > 0;
  base.validate = args.count("validate") > 0;
  base.mtu = args.count("mtu") != 0 ? size_option(args, "mtu", 256, 4096) : 0;  // 0: active
  read_path_options(args, base);
  if (args.count("outs")) base.outs = count_option32(args, "outs", 1, kMaxOuts);
  if (args.count("inline")) base.inline_size = size_option(args, "inline", 0, kMaxInline);
  base.hugepages = args.count("hugepages") > 0;
  const std::string arrivals = args["arrivals"].as<std::string>();
  const auto spacing = parse_arrivals(arrivals);
  if (!spacing)
    throw Error(ExitCode::kUsage,
                "--arrivals: unknown value '" + printable(arrivals) + "' (fixed or poisson)");
  base.arrivals = *spacing;
  const std::string api = args["post-api"].as<std::string>();
  const auto post_api = parse_post_api(api);
  if (!post_api)
    throw Error(ExitCode::kUsage, "--post-api: unknown value '" + api + "' (ex, classic or auto)");
  base.post_api = *post_api;
}

// --limits-file: this host's entry, said on standard error. A limit of a mode the run does not
// run judges nothing (the file serves every check of the fleet).
PassLimits limits_from_file(const std::string& path, nlohmann::json& params) {
  const std::string type = machine_type();
  const MachineLimits chosen = read_machine_limits(path, type);
  const std::string named = "'" + printable(type) + "'";
  std::cerr << "rdmabench: limits from " << printable(path) << ": "
            << (chosen.entry != "default" ? "machine type " + named
                : type.empty()            ? "default (no DMI product_name here)"
                                          : "default (no entry for machine type " + named + ")")
            << "\n";
  params["limits_file"] = printable(path);  // JSON holds UTF-8 alone
  params["machine_type"] = printable(type);
  params["limits_entry"] = chosen.entry;
  params["max_lat"] =
      chosen.max_lat_text.empty() ? nlohmann::json(nullptr) : nlohmann::json(chosen.max_lat_text);
  return chosen.limits;
}

// --min-bw and --max-lat, each needing a run of its mode; or --limits-file.
PassLimits parse_pass_limits(const cxxopts::ParseResult& args, const BenchmarkMatrix& matrix) {
  PassLimits limits;
  if (args.count("limits-file") && (args.count("min-bw") || args.count("max-lat")))
    throw Error(ExitCode::kUsage,
                "--limits-file gives the limits: drop --min-bw and --max-lat, or the file");
  if (args.count("min-bw")) {
    limits.min_bw_gbps = parse_min_bandwidth(args["min-bw"].as<std::string>());
    if (!matrix.runs(Mode::kBandwidth))
      throw Error(ExitCode::kUsage, "--min-bw judges bw runs, and --mode lat runs none");
  }
  if (args.count("max-lat")) {
    limits.max_lat = parse_latency_limit(args["max-lat"].as<std::string>());
    if (!matrix.runs(Mode::kLatency))
      throw Error(ExitCode::kUsage, "--max-lat judges lat runs, and --mode bw runs none");
  }
  return limits;
}

// --cm (auto: none), and what only the out-of-band bootstrap honours, against the transport.
void parse_bootstrap_request(const cxxopts::ParseResult& args, const ServerConnection& server,
                             RunPlan& r) {
  r.cm = server.cm;
  const bool rdmacm = r.cm == Bootstrap::kRdmaCm;
  r.oob_only = oob_only_reason(r.cm, oob_only_option(args, server));
  const Transport transport = r.suite.matrix.base.transport;
  if (rdmacm && !transport->rdmacm_refusal.empty())
    throw Error(ExitCode::kUsage, "--cm rdmacm with --transport " + transport.name() + ": " +
                                      std::string(transport->rdmacm_refusal) +
                                      " (give --cm oob, or leave --cm auto; an iWARP device, "
                                      "which connects through rdma_cm alone, carries rc only)");
}

// --output FIGURE: a word it knows, standard output not taken by --json, and a benchmark of
// the figure's mode asked for (a bandwidth of latency rows would print nothing).
std::optional<OutputFigure> output_option(const cxxopts::ParseResult& args, const RunPlan& r) {
  if (!args.count("output")) return std::nullopt;
  const std::string word = args["output"].as<std::string>();
  const std::optional<OutputFigure> figure = parse_output_figure(word);
  if (!figure)
    throw Error(ExitCode::kUsage, "--output '" + printable(word) +
                                      "' is not a figure: give bandwidth (Gb/s), message_rate "
                                      "(Mpps) or latency (usec, t_p50)");
  if (r.json_stdout)
    throw Error(ExitCode::kUsage,
                "--output and --json both print to standard output: give one (--out FILE "
                "writes the JSON beside --output's numbers)");
  const Mode mode = mode_of(*figure);
  for (const TestSpec& spec : expand_specs(r.suite.matrix))
    if (spec.mode == mode) return figure;
  throw Error(ExitCode::kUsage, std::string("--output ") + output_figure_name(*figure) +
                                    " is a figure of --mode " + to_string(mode) +
                                    " rows, and none is asked for: add --mode " + to_string(mode));
}

}  // namespace

std::optional<RunPlan> parse_run_request(int argc, char** argv) {
  cxxopts::Options options = run_options();
  const auto args = options.parse(argc, argv);
  if (args.count("help")) {
    std::cout << options.help(kRunHelpGroups) << "\n"
              << value_spellings_help() << "\n"
              << exit_status_help();
    return std::nullopt;
  }
  refuse_repeated_options(options, args);
  if (!args.count("host"))
    throw Error(ExitCode::kUsage, "missing HOST (the address of `rdmabench serve`)");
  WhatToRun what = what_to_run(args);
  RunPlan r;
  const ServerConnection server = server_connection_of(args);  // --cm, --ib-port: read once
  parse_suite_options(args, server, what, r.suite);
  parse_base_spec(args, r.suite.matrix.base);
  // Every benchmark against the relations that hold on any device, before anything connects;
  // the device's limits are checked once it is open.
  if (std::string why = matrix_refusal(r.suite.matrix); !why.empty())
    throw Error(ExitCode::kUsage, why);
  parse_bootstrap_request(args, server, r);
  r.clock = clock_option(args["clock"].as<std::string>());
  if (args.count("out")) {
    r.out_file = args["out"].as<std::string>();
    if (r.out_file == "-")
      throw Error(ExitCode::kUsage,
                  "--out -: give --json for the results on standard output (--out writes a file)");
    check_writable(r.out_file, "--out");  // now, not after the benchmarks
  }
  if (args.count("metrics")) r.metrics_file = metrics_option(args["metrics"].as<std::string>());
  r.json_stdout = args.count("json") > 0;
  r.output = output_option(args, r);
  r.dry_run = args.count("dry-run") > 0;
  r.suite.reporting = reporting_of(args, r.suite.matrix);
  r.limits = parse_pass_limits(args, r.suite.matrix);
  nlohmann::json from_file = nlohmann::json::object();
  if (args.count("limits-file"))
    r.limits = limits_from_file(args["limits-file"].as<std::string>(), from_file);
  r.params = params_of(args, what, r.suite, r.limits);
  r.params.update(from_file);
  check_unmatched(args.unmatched(), options, {"run", r.suite.peer.address.host, true});
  r.benchmark_args = args.unmatched();
  if (what.chosen_for_the_user) std::cerr << bare_run_note(what, suite_summary(r.suite)) << "\n";
  return r;
}

}  // namespace rdmabench
