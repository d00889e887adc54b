// `rdmabench run HOST`: the client's command line. Its option schema, parsed into a RunPlan that
// the runner (runner/run_plan.h) runs.
#include "cli/run_command.h"

#include <algorithm>
#include <cxxopts.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "bench/pattern_catalogue.h"
#include "cli/option_checks.h"
#include "cli/unknown_options.h"
#include "control/control_protocol.h"
#include "control/spec_json.h"
#include "core/comma_list.h"
#include "core/exit_codes.h"
#include "core/version.h"
#include "datapath/thread_team.h"
#include "runner/run_plan.h"
#include "spec/spec_validation.h"

namespace rdmabench {

namespace {

template <typename T>
std::vector<T> parse_list(const std::string& text, std::optional<T> (*parse)(const std::string&),
                          const std::vector<T>& all, const char* option,
                          const std::string& choices) {
  if (text == "all") return all;
  std::vector<T> out;
  bool all_in_list = false;
  for (const std::string& item : split_comma_list(text)) {
    auto v = parse(item);
    if (v) {
      out.push_back(*v);
    } else if (item == "all") {
      all_in_list = true;  // said after any unknown value, which is the likelier slip
    } else {
      throw Error(ExitCode::kUsage, std::string("--") + option + ": unknown value '" + item +
                                        "' (choices: " + choices + ", or all alone)");
    }
  }
  if (all_in_list)
    throw Error(ExitCode::kUsage, std::string("--") + option + " " + text +
                                      ": 'all' stands alone, not in a list (choices: " + choices +
                                      ")");
  if (out.empty()) throw Error(ExitCode::kUsage, std::string("--") + option + " is empty");
  return out;
}

std::string cq_help() {
  std::string help =
      "How each side harvests completions; several separated by ';' (or ',' when plain: "
      "busy,event); 'all' is busy and event. One strategy for both sides, or "
      "client=S,server=S. Strategies:";
  for (const StrategyInfo& info : registered_strategies())
    help += "\n      " + std::string(info.usage) + ": " + std::string(info.summary);
  return help;
}

std::string pattern_help() {
  std::string help = "Patterns, comma separated, or all (each at the --sizes it accepts):";
  for (const Pattern& p : registered_patterns())
    help += "\n      " + p.name() + ": " + std::string(p->summary);
  return help;
}

std::string transport_help() {
  std::string help = "The QP type every benchmark runs over:";
  for (const Transport& t : registered_transports())
    help += "\n      " + t.name() + ": " + std::string(t->summary);
  return help;
}

// What runs: patterns, modes, CQ strategies, sizes, and for how long.
void add_what_to_run(cxxopts::Options& options) {
  options.add_options("What to run")("pattern", pattern_help(),
                                     cxxopts::value<std::string>()->default_value("all"))(
      "transport", transport_help(),
      cxxopts::value<std::string>()->default_value(default_transport().name()))(
      "mode", "bw,lat or all", cxxopts::value<std::string>()->default_value("all"))(
      "cq", cq_help(), cxxopts::value<std::string>()->default_value("all"))(
      "rate",
      "Offered load, open loop: lat round trips started per second, each latency counted from "
      "its intended start; bw messages a QP per second, or Gb/s a QP (2.5gbps), each sent at "
      "its time and the row showing offered against achieved; several: 0,1000,10000 (0: back "
      "to back)",
      cxxopts::value<std::string>()->default_value("0"))(
      "sizes", "Message sizes: 2:8M (powers of two), 4096, 2,64K,1M",
      cxxopts::value<std::string>()->default_value(kDefaultSizes))(
      "iters",
      "Messages per QP per benchmark run (like perftest -n); default: Google Benchmark decides "
      "from --benchmark_min_time",
      cxxopts::value<uint64_t>())(
      "duration",
      "Seconds: run each benchmark for a timed window instead of --iters (like perftest -D); "
      "only messages completed inside it count; lat keeps every sample for its percentiles",
      cxxopts::value<double>())(
      "margin", "Seconds run before and after the --duration window, in no figure (perftest -f)",
      cxxopts::value<double>()->default_value("0.5"))(
      "warmup", "Messages run before each benchmark's timing starts, left out of every figure",
      cxxopts::value<uint64_t>()->default_value("16"))(
      "verify",
      "After each benchmark's timed runs, run its messages once more, untimed, with every "
      "message checked by its receiver");
}

// QPs, threads and queues.
void add_scale_and_queues(cxxopts::Options& options) {
  options.add_options("Scale out and queues")(
      "qps",
      "QPs per benchmark, spread over the threads (like perftest -q); several make one "
      "benchmark each: 1,2,4,8. lat needs as many --threads (one ping-pong per thread)",
      cxxopts::value<std::string>()->default_value("1"))(
      "threads",
      "Threads per side (the server matches); each drives its own QPs and CQ, QP i on thread "
      "i % threads; capped at the QP count",
      cxxopts::value<uint32_t>()->default_value("1"))(
      "cpus",
      "Pin thread t to the t-th CPU of this list (0,2 or 4-7); default: the CPUs of the NUMA "
      "node the device hangs off, on a host of several nodes (the server places its own)",
      cxxopts::value<std::string>())(
      "numa",
      "N: run on node N's CPUs with buffers in its memory; off: neither (default: the "
      "device's node, when it has one and the host has several)",
      cxxopts::value<std::string>())(
      "cq-per-qp", "Give each QP its own CQ (default: one CQ per thread, shared by its QPs)")(
      "bidir",
      "bw: both directions at once (like perftest -b); each side times its own direction, and "
      "the sum is reported")("tx-depth", "Outstanding send work requests (bw)",
                             cxxopts::value<uint32_t>()->default_value("128"))(
      "rx-depth", "Posted receives at the receiver",
      cxxopts::value<uint32_t>()->default_value("512"))(
      "signal-every", "Request a completion every N sends (selective signalling)",
      cxxopts::value<uint32_t>()->default_value("16"))(
      "poll-batch", "Completions asked for per ibv_poll_cq call (1..64)",
      cxxopts::value<uint32_t>()->default_value("32"))(
      "outs",
      "RDMA reads and atomics each QP keeps in flight (like perftest -o; default: the "
      "device's most, at most 16)",
      cxxopts::value<uint32_t>())(
      "inline",
      "Payloads of at most N bytes go inline in the work request (like perftest -I); 0: "
      "never (default: automatic, up to what the QP grants for 220)",
      cxxopts::value<uint32_t>())(
      "post-list",
      "bw: sends chained per ibv_post_send (like perftest -l); several make one benchmark "
      "each: 1,2,4,8,16,32",
      cxxopts::value<std::string>()->default_value("1"))(
      "srq",
      "The receiving side's QPs take their receives from one shared receive queue of "
      "--rx-depth receives (like perftest --use-srq); patterns whose target takes receives only")(
      "hugepages",
      "Every buffer both sides register in 2 MiB huge pages (like perftest --use_hugepages); "
      "refused when too few are free (sysctl vm.nr_hugepages)");
}

// The server, the device and the path, and how long to wait.
void add_connection(cxxopts::Options& options) {
  options.add_options("Connection")("host", "Server address", cxxopts::value<std::string>())(
      "p,port", "Server's TCP control port", cxxopts::value<int64_t>()->default_value("18515"))(
      "clock",
      "What lat samples are read with: auto (the TSC where CPUID says it is invariant, else "
      "CLOCK_MONOTONIC), tsc (the TSC even so, as perftest does; calibrated against and checked "
      "with CLOCK_MONOTONIC) or monotonic",
      cxxopts::value<std::string>()->default_value("auto"))(
      "cm", "auto, rdmacm or oob (out-of-band QP exchange over TCP)",
      cxxopts::value<std::string>()->default_value("auto"))(
      "d,device", "Local RDMA device for --cm oob (default: the first)",
      cxxopts::value<std::string>()->default_value(""))(
      "ib-port",
      "The device's port (like perftest -i); out of band only, so --cm auto then picks oob "
      "(rdma_cm picks the port from the address)",
      cxxopts::value<uint32_t>()->default_value("1"))(
      "gid-index", "GID index (default: as `rdmabench devices` marks it)",
      cxxopts::value<uint32_t>())("mtu", "Path MTU in bytes for --cm oob (default: the active MTU)",
                                  cxxopts::value<uint32_t>()->default_value("0"))(
      "qp-timeout", kQpTimeoutHelp, cxxopts::value<uint32_t>())(
      "tclass", kTclassHelp, cxxopts::value<uint32_t>())("sl", kSlHelp, cxxopts::value<uint32_t>())(
      "timeout", "Seconds any blocking step may take",
      cxxopts::value<double>()->default_value("5"))(
      "wait", "Seconds to wait for a server that is busy with another client",
      cxxopts::value<double>()->default_value("120"))(
      "no-wait", "Fail at once when the server is busy with another client")(
      "key", "A copy of the server's --key file, for a server that asks for one",
      cxxopts::value<std::string>());
}

cxxopts::Options run_options() {
  cxxopts::Options options(
      "rdmabench run",
      "Run benchmarks against `rdmabench serve` on HOST. One Google Benchmark per "
      "pattern/mode/cq/size, named like write/bw/busy/65536; --benchmark_* flags work as usual "
      "(filter, repetitions, min_time).");
  options.positional_help("HOST [--benchmark_...]");
  options.allow_unrecognised_options();
  add_what_to_run(options);
  add_scale_and_queues(options);
  add_connection(options);
  options.add_options("Output")("out",
                                "Write Google Benchmark JSON (with rdmabench context) to FILE",
                                cxxopts::value<std::string>())(
      "report-every",
      "Seconds: while each bw benchmark runs, print what the client sent in every interval "
      "of this length to standard error (like iperf3 -i; lat rows are not reported)",
      cxxopts::value<double>())(
      "json",
      "Write the results JSON (as --out's) to standard output; the table and every message "
      "go to standard error")(
      "counters",
      "on: each side reads its port's counters (sysfs hw_counters, counters and the RoCE "
      "netdev's statistics) before and after each benchmark's timed run, outside its window, "
      "and the row carries what moved (client_dev_*, server_dev_*); off: no reading",
      cxxopts::value<std::string>()->default_value("on"))("h,help", "Show help");
  // Not in --help (its groups are listed there): for the suite's own tests.
  options.add_options("Testing")(
      "debug-corrupt", "Testing only: in --verify check runs, damage what the client sends");
  options.add_options("Pass or fail (health checks)")(
      "min-bw",
      "Gb/s, as the table's BW avg[Gb/s]: every bw run must reach it, or the exit status is 8 "
      "(like perftest -w)",
      cxxopts::value<std::string>())(
      "max-lat",
      "STATISTIC:US, for example p99:20: every lat run's statistic (min, p50, mean, p90, p99, "
      "p99.9, max) must be at most US microseconds, or the exit status is 8 (like perftest -y)",
      cxxopts::value<std::string>());
  options.parse_positional({"host"});
  return options;
}

// A comma-separated list of whole numbers in [lo, hi], without repeats: --rate, --qps.
std::vector<uint64_t> parse_number_list(const std::string& text, const std::string& option,
                                        uint64_t lo, uint64_t hi, const std::string& what) {
  std::vector<uint64_t> out;
  for (const std::string& item : split_comma_list(text)) {
    const bool digits =
        !item.empty() && item.size() <= 9 && std::all_of(item.begin(), item.end(), ::isdigit);
    if (!digits || std::stoull(item) < lo || std::stoull(item) > hi)
      throw Error(ExitCode::kUsage, "--" + option + " '" + text + "': '" + item + "' is not " +
                                        what + " from " + std::to_string(lo) + " to " +
                                        std::to_string(hi));
    if (std::find(out.begin(), out.end(), std::stoull(item)) == out.end())
      out.push_back(std::stoull(item));
  }
  if (out.empty()) throw Error(ExitCode::kUsage, "--" + option + ": nothing given");
  return out;
}

// 2.5 -> "2.5", 10 -> "10".
std::string format_gbps(double gbps) {
  std::ostringstream text;
  text << gbps;
  return text.str();
}

// --rate: round trips (lat) or messages a QP (bw) per second, each 0..kMaxRate, or Gb/s a QP
// (bw: "2.5gbps" or "2.5Gb/s", above 0 and at most 10000).
std::vector<OfferedRate> parse_rates(const std::string& text) {
  std::vector<OfferedRate> rates;
  std::string counts;
  for (const std::string& item : split_comma_list(text)) {
    std::string lower = item;
    std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
    const size_t unit = lower.ends_with("gbps") ? 4 : lower.ends_with("gb/s") ? 4 : 0;
    if (unit == 0) {
      counts += (counts.empty() ? "" : ",") + item;
      continue;
    }
    const std::string number = item.substr(0, item.size() - unit);
    char* end = nullptr;
    const double gbps = std::strtod(number.c_str(), &end);
    if (number.empty() || end != number.c_str() + number.size() || !(gbps > 0 && gbps <= 10000))
      throw Error(ExitCode::kUsage, "--rate '" + item.substr(0, 40) +
                                        "': give Gb/s a QP above 0 and at most 10000 (2.5gbps)");
    rates.push_back({0, gbps});
  }
  if (!counts.empty())
    for (const uint64_t r : parse_number_list(counts, "rate", 0, kMaxRate,
                                              "a rate per second (lat: round trips; bw: "
                                              "messages a QP; examples: 1000, 0,1000,10000)"))
      rates.push_back({r, 0});
  if (rates.empty()) throw Error(ExitCode::kUsage, "--rate: nothing given");
  return rates;
}

// --qps: QP counts, each 1..kMaxQps.
std::vector<uint32_t> parse_qps(const std::string& text) {
  const auto counts =
      parse_number_list(text, "qps", 1, kMaxQps, "a QP count (examples: 4, 1,2,4,8)");
  return {counts.begin(), counts.end()};
}

// Seconds given on the command line, within [lo, hi], as nanoseconds.
uint64_t seconds_option(const cxxopts::ParseResult& args, const char* name, double lo, double hi) {
  const double v = args[name].as<double>();
  if (!(v >= lo && v <= hi))
    throw Error(ExitCode::kUsage, std::string("--") + name + " must be between " +
                                      std::to_string(lo).substr(0, 5) + " and " +
                                      std::to_string(static_cast<int64_t>(hi)) + " seconds");
  return static_cast<uint64_t>(v * 1e3) * 1'000'000;  // whole milliseconds, as "run" carries
}

// --qps, --threads, --cpus, --cq-per-qp, --bidir, --duration, --margin.
void parse_scale_out(const cxxopts::ParseResult& args, SuiteOptions& so) {
  so.qps = parse_qps(args["qps"].as<std::string>());
  const auto chains = parse_number_list(args["post-list"].as<std::string>(), "post-list", 1,
                                        kMaxPostList, "a chain length (examples: 8, 1,2,4,8)");
  so.post_lists.assign(chains.begin(), chains.end());
  if (args.count("post-list") && !so.runs(Mode::kBandwidth))
    throw Error(ExitCode::kUsage, "--post-list chains bw sends: give --mode bw or all");
  so.threads = args["threads"].as<uint32_t>();
  if (so.threads == 0 || so.threads > kMaxThreads)
    throw Error(ExitCode::kUsage, "--threads must be between 1 and " + std::to_string(kMaxThreads));
  if (args.count("cpus")) so.cpus = parse_cpu_list(args["cpus"].as<std::string>());
  if (args.count("numa")) so.numa = numa_option(args["numa"].as<std::string>());
  if (args.count("key")) so.key = SharedKey::from_file(args["key"].as<std::string>());
  so.base.cq_per_qp = args.count("cq-per-qp") > 0;
  so.base.bidir = args.count("bidir") > 0;
  if (args.count("margin") && !args.count("duration"))
    throw Error(ExitCode::kUsage,
                "--margin needs --duration (it is run before and after a timed window)");
  if (args.count("duration")) {
    if (args.count("iters")) throw Error(ExitCode::kUsage, "give --iters or --duration, not both");
    so.duration_ns = seconds_option(args, "duration", 0.001, kMaxDurationMs / 1000.0);
    so.margin_ns = seconds_option(args, "margin", 0, kMaxMarginMs / 1000.0);
  }
}

// Every benchmark the options ask for (expand_specs) against the relations that hold on any
// device (lat needs a thread per QP, --bidir is bw only, ...), before anything connects; the
// device's limits are checked once it is open.
void validate_combinations(const SuiteOptions& so) {
  const bool in_gbps = std::any_of(so.rates.begin(), so.rates.end(),
                                   [](const OfferedRate& r) { return r.gbps > 0; });
  if (in_gbps && so.runs(Mode::kLatency))
    throw Error(ExitCode::kUsage,
                "--rate in Gb/s paces bw streams only, and lat runs round trips: give --mode bw, "
                "or a rate in round trips per second");
  for (const OfferedRate& r : so.rates)
    for (const uint64_t size : so.sizes)
      if (r.gbps > 0 && r.per_second_at(size) > kMaxRate)
        throw Error(ExitCode::kUsage,
                    "--rate " + format_gbps(r.gbps) + "gbps at " + std::to_string(size) + " B is " +
                        std::to_string(r.per_second_at(size)) + " messages a second, more than " +
                        std::to_string(kMaxRate) + ": give larger --sizes or a lower rate");
  for (const TestSpec& s : expand_specs(so)) validate_spec(s);
  if (so.base.bidir && !so.runs(Mode::kBandwidth))
    throw Error(ExitCode::kUsage, "--bidir needs bw mode (--mode bw or all)");
}

// One note per pattern that runs at none of the sizes: "fetch_add at 2, 4096 B (atomics work
// on 8-byte operands)", and one for all the patterns a transport cannot run: "read, fetch_add,
// compare_swap (needs a reliable connected transport, not uc)". A pattern that runs at some of
// the sizes says nothing: its rows show which (the atomics run at 8 B of the default 2:8M, and
// a note on every plain run would be noise).
std::vector<std::string> skip_notes(const PatternSizes& expanded) {
  struct Note {
    std::string what, why;
    bool whole_patterns;  // names patterns left out at every size: others may join it
  };
  std::vector<Note> notes;
  const std::vector<SkippedPair>& skipped = expanded.skipped;
  for (size_t i = 0; i < skipped.size();) {
    const SkippedPair& first = skipped[i];
    std::string sizes;
    for (; i < skipped.size() && skipped[i].pattern == first.pattern; ++i)
      if (skipped[i].size > 0)
        sizes += (sizes.empty() ? "" : ", ") + std::to_string(skipped[i].size);
    const bool runs = std::any_of(expanded.runs.begin(), expanded.runs.end(),
                                  [&](const auto& run) { return run.first == first.pattern; });
    if (runs) continue;
    const bool whole = sizes.empty();
    auto same = std::find_if(notes.begin(), notes.end(), [&](const Note& n) {
      return whole && n.whole_patterns && n.why == first.why;
    });
    if (same != notes.end())
      same->what += ", " + first.pattern.name();
    else
      notes.push_back(
          {first.pattern.name() + (whole ? "" : " at " + sizes + " B"), first.why, whole});
  }
  std::vector<std::string> lines;
  for (const Note& n : notes) lines.push_back(n.what + " (" + n.why + ")");
  return lines;
}

// --pattern against --sizes: each pattern runs the sizes its rule accepts. A named pattern
// with a size it refuses is an error; `all` leaves such pairs out and says so.
void parse_patterns(const std::string& text, SuiteOptions& so) {
  const auto named =
      parse_list<Pattern>(text, parse_pattern, registered_patterns(), "pattern", pattern_names());
  PatternSizes expanded =
      expand_patterns(named, so.sizes, so.base.transport, so.base.srq, text == "all");
  const std::vector<std::string> notes = skip_notes(expanded);
  so.patterns = std::move(expanded.runs);
  for (const std::string& note : notes)
    std::cerr << "rdmabench: note: --pattern all leaves out " << note << "\n";
}

ClockChoice clock_option(const std::string& text) {
  if (text == "auto") return ClockChoice::kAuto;
  if (text == "tsc") return ClockChoice::kTsc;
  if (text == "monotonic") return ClockChoice::kMonotonic;
  throw Error(ExitCode::kUsage, "--clock: unknown '" + text + "' (auto, tsc, monotonic)");
}

// The parameters that do not come from TestSpec, and the suite's own.
void parse_suite_options(const cxxopts::ParseResult& args, SuiteOptions& so) {
  so.host = args["host"].as<std::string>();
  so.port = port_option(args["port"].as<int64_t>());
  so.timeout = timeout_option(args["timeout"].as<double>());
  if (args.count("no-wait") && args.count("wait"))
    throw Error(ExitCode::kUsage, "give --wait SECONDS or --no-wait, not both");
  const double wait_s = args["wait"].as<double>();
  if (!(wait_s >= 0)) throw Error(ExitCode::kUsage, "--wait must be 0 or more seconds");
  so.wait.wait = std::chrono::milliseconds(
      args.count("no-wait") ? 0 : static_cast<int64_t>(std::min(wait_s, 1e9) * 1000));
  so.device = args["device"].as<std::string>();
  so.ib_port = ib_port_option(args["ib-port"].as<uint32_t>());
  so.modes = parse_list<Mode>(args["mode"].as<std::string>(), parse_mode,
                              {Mode::kBandwidth, Mode::kLatency}, "mode", "bw, lat");
  so.cq_choices = parse_cq_choices(args["cq"].as<std::string>());
  so.sizes = parse_sizes(args["sizes"].as<std::string>());
  std::string transport_name = args["transport"].as<std::string>();  // perftest says RC, UC, UD
  std::transform(transport_name.begin(), transport_name.end(), transport_name.begin(), ::tolower);
  const auto transport = parse_transport(transport_name);
  if (!transport)
    throw Error(ExitCode::kUsage, "--transport: unknown '" + args["transport"].as<std::string>() +
                                      "' (" + transport_names() + ")");
  so.base.transport = *transport;
  so.base.srq = args.count("srq") > 0;  // before the patterns: it leaves some out
  if (so.base.transport->one_packet_messages && args.count("sizes") == 0) {
    so.sizes_to_mtu = true;  // the rest is cut at the device's MTU once it is open
    std::erase_if(so.sizes, [](uint64_t size) { return size > kLargestMtu; });
  }
  parse_patterns(args["pattern"].as<std::string>(), so);
  so.rates = parse_rates(args["rate"].as<std::string>());
  if (args.count("iters")) so.iterations = iterations_option(args["iters"].as<uint64_t>(), "iters");
  parse_scale_out(args, so);
  so.warmup = warmup_option(args["warmup"].as<uint64_t>());
  so.debug_corrupt = args.count("debug-corrupt") > 0;
  const std::string counters = args["counters"].as<std::string>();
  if (counters != "on" && counters != "off")
    throw Error(ExitCode::kUsage, "--counters: unknown value '" + counters + "' (on or off)");
  so.device_counters = counters == "on";
}

// An option given that only the out-of-band bootstrap honours, and why rdma_cm does not.
struct OobOnly {
  std::string option, why;
};
std::optional<OobOnly> oob_only_option(const cxxopts::ParseResult& args) {
  if (args.count("ib-port")) return OobOnly{"--ib-port", "rdma_cm picks the port from the address"};
  if (args.count("sl"))
    return OobOnly{"--sl", "rdma_cm takes the service level from the path (on RoCE from --tclass)"};
  return std::nullopt;
}

void parse_base_spec(const cxxopts::ParseResult& args, TestSpec& base) {
  base.tx_depth = args["tx-depth"].as<uint32_t>();
  base.rx_depth = args["rx-depth"].as<uint32_t>();
  base.signal_every = args["signal-every"].as<uint32_t>();
  base.poll_batch = args["poll-batch"].as<uint32_t>();
  base.verify = args.count("verify") > 0;
  base.mtu = args["mtu"].as<uint32_t>();
  if (args.count("qp-timeout")) base.qp_timeout = args["qp-timeout"].as<uint32_t>();
  if (args.count("outs")) base.outs = args["outs"].as<uint32_t>();
  if (args.count("inline")) base.inline_size = args["inline"].as<uint32_t>();
  if (args.count("gid-index")) base.gid_index = args["gid-index"].as<uint32_t>();
  if (args.count("tclass")) base.tclass = args["tclass"].as<uint32_t>();
  if (args.count("sl")) base.sl = args["sl"].as<uint32_t>();
  base.hugepages = args.count("hugepages") > 0;
}

nlohmann::json params_of(const cxxopts::ParseResult& args, const SuiteOptions& so,
                         const PassLimits& limits) {
  nlohmann::json params = to_json(so.base);
  for (const char* key : {"pattern", "mode", "cq", "size", "rate", "qps", "threads", "post_list"})
    params.erase(key);
  params["qps"] = args["qps"].as<std::string>();
  params["post_list"] = args["post-list"].as<std::string>();
  params["threads"] = so.threads;
  params["cpus"] = args.count("cpus") ? args["cpus"].as<std::string>() : std::string();
  params["numa"] = args.count("numa") ? args["numa"].as<std::string>() : std::string();
  params["duration_s"] =
      so.duration_ns > 0 ? nlohmann::json(so.duration_ns * 1e-9) : nlohmann::json(nullptr);
  params["margin_s"] =
      so.duration_ns > 0 ? nlohmann::json(so.margin_ns * 1e-9) : nlohmann::json(nullptr);
  params["patterns"] = args["pattern"].as<std::string>();
  params["modes"] = args["mode"].as<std::string>();
  params["cq"] = args["cq"].as<std::string>();
  params["sizes"] = args["sizes"].as<std::string>();
  params["rates"] = args["rate"].as<std::string>();
  params["iters"] = so.iterations ? nlohmann::json(*so.iterations) : nlohmann::json(nullptr);
  params["timeout_s"] = args["timeout"].as<double>();
  params["warmup"] = so.warmup;
  params["server"] = so.host + ":" + std::to_string(so.port);
  // What was asked (auto, rdmacm or oob); the context's "bootstrap" says what was used. The
  // base spec's own field is only chosen later, by the probe.
  params["cm"] = args["cm"].as<std::string>();
  params["clock"] = args["clock"].as<std::string>();
  params["counters"] = args["counters"].as<std::string>();
  params["ib_port"] = so.ib_port;
  params["report_every_s"] =
      so.report_every.count() > 0
          ? nlohmann::json(static_cast<double>(so.report_every.count()) / 1e3)
          : nlohmann::json(nullptr);
  params["min_bw_gbps"] =
      limits.min_bw_gbps ? nlohmann::json(*limits.min_bw_gbps) : nlohmann::json(nullptr);
  params["max_lat"] = args.count("max-lat") ? nlohmann::json(args["max-lat"].as<std::string>())
                                            : nlohmann::json(nullptr);
  return params;
}

// --min-bw and --max-lat, each needing a run of its mode.
PassLimits parse_pass_limits(const cxxopts::ParseResult& args, const SuiteOptions& so) {
  PassLimits limits;
  if (args.count("min-bw")) {
    limits.min_bw_gbps = parse_min_bandwidth(args["min-bw"].as<std::string>());
    if (!so.runs(Mode::kBandwidth))
      throw Error(ExitCode::kUsage, "--min-bw judges bw runs, and --mode lat runs none");
  }
  if (args.count("max-lat")) {
    limits.max_lat = parse_latency_limit(args["max-lat"].as<std::string>());
    if (!so.runs(Mode::kLatency))
      throw Error(ExitCode::kUsage, "--max-lat judges lat runs, and --mode bw runs none");
  }
  return limits;
}

// Parse and validate; nullopt after --help.
std::optional<RunPlan> parse_run_request(int argc, char** argv) {
  cxxopts::Options options = run_options();
  const auto args = options.parse(argc, argv);
  if (args.count("help")) {
    std::cout << options.help({"What to run", "Scale out and queues", "Connection", "Output",
                               "Pass or fail (health checks)"})
              << "\n"
              << exit_status_help();
    return std::nullopt;
  }
  if (!args.count("host"))
    throw Error(ExitCode::kUsage, "missing HOST (the address of `rdmabench serve`)");
  RunPlan r;
  parse_suite_options(args, r.suite);
  parse_base_spec(args, r.suite.base);
  validate_combinations(r.suite);
  r.cm = args["cm"].as<std::string>();
  r.clock = clock_option(args["clock"].as<std::string>());
  if (r.cm != "auto" && r.cm != "rdmacm" && r.cm != "oob")
    throw Error(ExitCode::kUsage, "--cm must be auto, rdmacm or oob");
  if (const auto only = oob_only_option(args)) {
    if (r.cm == "rdmacm")
      throw Error(ExitCode::kUsage, only->option +
                                        " is for the out-of-band bootstrap: " + only->why +
                                        " (give --cm oob, or drop " + only->option + ")");
    r.oob_only = only->option + " given (" + only->why + ")";
  }
  const Transport transport = r.suite.base.transport;
  if (r.cm == "rdmacm" && !transport->rdmacm_refusal.empty())
    throw Error(ExitCode::kUsage, "--cm rdmacm with --transport " + transport.name() + ": " +
                                      std::string(transport->rdmacm_refusal) +
                                      " (give --cm oob, or leave --cm auto)");
  if (args.count("out")) {
    r.out_file = args["out"].as<std::string>();
    if (r.out_file == "-")
      throw Error(ExitCode::kUsage,
                  "--out -: give --json for the results on standard output (--out writes a file)");
    // Checked now, not after the benchmarks; a file made only for the check goes again, so
    // a run that fails before any benchmark leaves no empty "results" behind.
    std::error_code ignored;
    const bool existed = std::filesystem::exists(r.out_file, ignored);
    const bool writable = static_cast<bool>(std::ofstream(r.out_file, std::ios::app));
    if (!existed) std::filesystem::remove(r.out_file, ignored);
    if (!writable) throw Error(ExitCode::kUsage, "--out " + r.out_file + ": cannot write there");
  }
  r.json_stdout = args.count("json") > 0;
  if (args.count("report-every")) {
    r.suite.report_every =
        std::chrono::milliseconds(seconds_option(args, "report-every", 0.1, 3600) / 1'000'000);
    if (!r.suite.runs(Mode::kBandwidth))
      throw Error(ExitCode::kUsage,
                  "--report-every reports bw runs as they go, and --mode lat runs none");
  }
  r.limits = parse_pass_limits(args, r.suite);
  r.params = params_of(args, r.suite, r.limits);
  check_unmatched(args.unmatched(), options, {"run", r.suite.host, true});
  r.benchmark_args = args.unmatched();
  return r;
}

}  // namespace

int run_run_command(int argc, char** argv) {
  std::optional<RunPlan> plan = parse_run_request(argc, argv);
  return plan ? run_benchmarks(std::move(*plan)) : 0;
}

}  // namespace rdmabench
