#include "cli/run_options.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>

#include "bench/pattern_catalogue.h"
#include "cli/option_checks.h"
#include "cli/path_options.h"
#include "cli/run_profile.h"
#include "cli/server_connection.h"
#include "core/error.h"
#include "core/printable_text.h"
#include "cq/strategy.h"
#include "spec/test_spec.h"
#include "spec/transport.h"

namespace rdmabench {

namespace {

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
  options.add_options("What to run")("profile", profile_help(), cxxopts::value<std::string>())(
      "pattern", pattern_help() + "\n      (default: the profile's)",
      cxxopts::value<std::string>())(
      "transport", transport_help(),
      cxxopts::value<std::string>()->default_value(default_transport().name()))(
      "mode", "bw,lat or all (default: the profile's)", cxxopts::value<std::string>())(
      "cq", cq_help() + "\n      (default: the profile's)", cxxopts::value<std::string>())(
      "rate",
      "Offered load, open loop: lat round trips started per second, each latency counted from "
      "its intended start; bw messages a QP per second, or Gb/s a QP (2.5gbps), each sent at "
      "its time and the row showing offered against achieved; several: 0,1000,10000 (0: back "
      "to back)",
      cxxopts::value<std::string>()->default_value("0"))(
      "load",
      "Offered load over every QP of a benchmark, split evenly: lat round trips, bw messages, "
      "per second (each QP at load / --qps, which must be whole); several: 2560,12800; instead "
      "of --rate, to compare QP counts at the same load",
      cxxopts::value<std::string>())(
      "arrivals",
      "lat --rate: how each QP's round trips are spaced, fixed (1/rate apart) or poisson "
      "(exponential gaps of that mean, the same seeded starts every run); poisson, or more QPs "
      "than threads, makes an open-loop run: each QP at its own --rate (or back to back), "
      "several round trips out at once on a thread's one CQ",
      cxxopts::value<std::string>()->default_value("fixed"))(
      "sizes", "Message sizes: 2:8M (powers of two), 4096, 2,64K,1M (default: the profile's)",
      cxxopts::value<std::string>())(
      "iters",
      "Messages per QP per benchmark run (like perftest -n); default: the profile's (full: "
      "Google Benchmark decides from --benchmark_min_time)",
      cxxopts::value<std::string>(), "COUNT")(
      "duration",
      "Run each benchmark for a timed window instead of --iters (like perftest -D): 10s, "
      "500ms, 2m (a number alone is seconds); only messages completed inside it count; lat "
      "keeps every sample for its percentiles",
      cxxopts::value<std::string>(), "TIME")(
      "margin", "Time run before and after the --duration window, in no figure (perftest -f)",
      cxxopts::value<std::string>()->default_value("500ms"), "TIME")(
      "warmup", "Messages run before each benchmark's timing starts, left out of every figure",
      cxxopts::value<std::string>()->default_value("16"),
      "COUNT")("verify",
               "After each benchmark's timed runs, run its messages once more, untimed, with every "
               "message checked by its receiver")(
      "validate",
      "Check every byte of every message inside the timed runs, as each lands: receives at "
      "their receiver (send, send_imm, write_imm), reads and atomics at their requester, each "
      "lat round trip, and write bw's writes at their target, which spins on a ring of "
      "--rx-depth slots a QP (the writer reads the count it checked so as never to write over "
      "an unchecked slot; rc, without --bidir); the figures then include the checks' cost. A "
      "bw receiver keeps a slot for each receive posted (--rx-depth x size a QP), a reader one "
      "for each read in flight. A corrupt byte fails the benchmark (exit 6) naming its first "
      "message; a message whose completion came without its data looks like the one before it "
      "(one pattern a size), but for write bw's");
}

// QPs, threads and queues.
void add_scale_and_queues(cxxopts::Options& options) {
  options.add_options("Scale out and queues")(
      "qps",
      "QPs per benchmark, spread over the threads (like perftest -q); several make one "
      "benchmark each: 1,2,4,8. lat: one ping-pong a thread (as many --threads), or more "
      "QPs than threads, each at --rate (open loop, --arrivals) or back to back",
      cxxopts::value<std::string>()->default_value("1"))(
      "threads",
      "Threads per side (the server matches); each drives its own QPs and CQ, QP i on thread "
      "i % threads; capped at the QP count",
      cxxopts::value<std::string>()->default_value("1"), "COUNT")(
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
                             cxxopts::value<std::string>()->default_value("128"),
                             "COUNT")("rx-depth", "Posted receives at the receiver",
                                      cxxopts::value<std::string>()->default_value("512"), "COUNT")(
      "signal-every", "Request a completion every N sends (selective signalling)",
      cxxopts::value<std::string>()->default_value("16"),
      "COUNT")("poll-batch", "Completions asked for per ibv_poll_cq call (1..64)",
               cxxopts::value<std::string>()->default_value("32"), "COUNT")(
      "outs",
      "RDMA reads and atomics each QP keeps in flight (like perftest -o; default: the "
      "device's most, at most 16)",
      cxxopts::value<std::string>(),
      "COUNT")("inline",
               "Payloads of at most N bytes go inline in the work request (like perftest -I); 0: "
               "never (default: automatic, up to what the QP grants for 220)",
               cxxopts::value<std::string>(), "SIZE")(
      "post-list",
      "bw: sends chained per ibv_post_send (like perftest -l); several make one benchmark "
      "each: 1,2,4,8,16,32",
      cxxopts::value<std::string>()->default_value("1"))(
      "srq",
      "The receiving side's QPs take their receives from one shared receive queue of "
      "--rx-depth receives (like perftest --use-srq); patterns whose target takes receives only")(
      "hugepages",
      "Every buffer both sides register in 2 MiB huge pages (like perftest --use_hugepages); "
      "refused when too few are free (sysctl vm.nr_hugepages)")(
      "post-api",
      "How sends are posted: ex (the extended API, ibv_wr_start/ibv_wr_*/ibv_wr_complete, as "
      "perftest does), classic (ibv_post_send, like perftest --use_old_post_send), auto (ex "
      "where the device has it, else classic; the context says which ran)",
      cxxopts::value<std::string>()->default_value("auto"));
}

// The server, the device and the path, and how long to wait: what every command that measures
// against a server takes (server_connection.h), then the path's settings run alone takes.
void add_connection(cxxopts::Options& options) {
  add_server_connection(options, "Connection");
  options.add_options("Connection")(
      "clock",
      "What lat samples are read with: auto (the TSC where CPUID says it is invariant, else "
      "CLOCK_MONOTONIC), tsc (the TSC even so, as perftest does; calibrated against and checked "
      "with CLOCK_MONOTONIC) or monotonic",
      cxxopts::value<std::string>()->default_value("auto"))(
      "mtu", "Path MTU for --cm oob: 256, 512, 1K, 2K or 4K (default: the active MTU)",
      cxxopts::value<std::string>(), "SIZE");
  add_path_options(options, "Connection");
}

// A searched value's number: the range's own values, or one that is not a dimension's (an
// internal error, named printably).
[[noreturn]] void not_searched(const std::string& value) {
  throw Error(ExitCode::kInternal, "searched value '" + printable(value) + "'");
}

uint32_t whole(const std::string& value) {
  uint32_t n = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (error != std::errc() || end != value.data() + value.size()) not_searched(value);
  return n;
}

void set_sizes(BenchmarkMatrix& r, const std::string& v) {
  const std::optional<uint64_t> size = parse_size(v);  // "64K"
  if (!size) not_searched(v);
  r.sizes = {*size};
}
void set_qps(BenchmarkMatrix& r, const std::string& v) {
  r.qps = {whole(v)};
}
void set_threads(BenchmarkMatrix& r, const std::string& v) {
  r.threads = whole(v);
}
void set_post_list(BenchmarkMatrix& r, const std::string& v) {
  r.post_lists = {whole(v)};
}
void set_tx_depth(BenchmarkMatrix& r, const std::string& v) {
  r.base.tx_depth = whole(v);
}
void set_poll_batch(BenchmarkMatrix& r, const std::string& v) {
  r.base.poll_batch = whole(v);
}
void set_mtu(BenchmarkMatrix& r, const std::string& v) {
  r.base.mtu = whole(v);
}
void set_qp_timeout(BenchmarkMatrix& r, const std::string& v) {
  r.base.qp_timeout = whole(v);
}
void set_bidir(BenchmarkMatrix& r, const std::string&) {
  r.base.bidir = true;
}
void set_srq(BenchmarkMatrix& r, const std::string&) {
  r.base.srq = true;
}
void set_inline(BenchmarkMatrix& r, const std::string& v) {
  r.base.inline_size = whole(v);
}
void set_outs(BenchmarkMatrix& r, const std::string& v) {
  r.base.outs = whole(v);
}
void set_rate(BenchmarkMatrix& r, const std::string& v) {
  r.rates = {OfferedRate{whole(v)}};
}

}  // namespace

const std::vector<OobOnlyRunOption>& oob_only_run_options() {
  static const std::vector<OobOnlyRunOption> options = {
      {"sl", "rdma_cm takes the service level from the path (on RoCE from --tclass)"},
      {"mtu", "rdma_cm takes the path MTU, the smaller of the two ports' active MTU"}};
  return options;
}

bool is_oob_only_run_option(const std::string& option) {
  return std::ranges::any_of(oob_only_run_options(),
                             [&](const OobOnlyRunOption& o) { return option == o.option; });
}

// One option a line: option, low, high, what a run takes without it, where the search starts,
// and its setter.
// clang-format off
const std::vector<SearchedRange>& searched_ranges() {
  static const std::vector<SearchedRange> ranges = {
      {"sizes", 2, 1 << 20, "", "64K", false, false, true, {}, set_sizes},
      {"qps", 1, 16, "1", "1", false, false, false, {}, set_qps},
      {"threads", 1, 4, "1", "1", false, false, false, {}, set_threads},
      {"post-list", 1, 32, "1", "1", false, false, false, {}, set_post_list},
      {"tx-depth", 16, 1024, "128", "128", false, false, false, {}, set_tx_depth},
      {"poll-batch", 1, 64, "32", "32", false, false, false, {}, set_poll_batch},
      {"mtu", 1024, 4096, "", "4096", false, false, false, {}, set_mtu},
      {"qp-timeout", 1, 20, "14", "14", false, true, false, {}, set_qp_timeout},
      {"bidir", 0, 0, "off", "off", true, false, false, {}, set_bidir},
      {"srq", 0, 0, "off", "off", true, false, false, {}, set_srq},
      {"inline", 0, 0, "auto", "auto", false, false, false, {"0", "64", "256", "auto"}, set_inline},
      {"outs", 0, 0, "most", "most", false, false, false, {"1", "4", "most"}, set_outs},
      {"rate", 0, 0, "unpaced", "unpaced", false, false, false,
       {"1000", "10000", "100000", "unpaced"}, set_rate},
  };
  return ranges;
}
// clang-format on

cxxopts::Options run_options() {
  cxxopts::Options options(
      "rdmabench run",
      "Run benchmarks against `rdmabench serve` on HOST. One Google Benchmark per "
      "pattern/mode/cq/size, named like write/bw/busy/65536/manual_time (a --benchmark_filter "
      "anchored with $ ends in /manual_time$); --benchmark_* flags work as usual (filter, "
      "repetitions, min_time).");
  options.positional_help("HOST [--benchmark_...]");
  options.allow_unrecognised_options();
  add_what_to_run(options);
  add_scale_and_queues(options);
  add_connection(options);
  options.add_options("Output")("out",
                                "Write Google Benchmark JSON (with rdmabench context) to FILE",
                                cxxopts::value<std::string>())(
      "metrics",
      "Write the results and the exit status as OpenMetrics text to FILE, replaced whole "
      "(for node_exporter's textfile collector, name it *.prom in its directory); written "
      "when the run fails before any benchmark too",
      cxxopts::value<std::string>())(
      "report-every",
      "While each bw benchmark runs, print what the client sent in every interval of this "
      "length (1s, 500ms) to standard error (like iperf3 -i; lat rows are not reported); "
      "the best interval is the table's BW peak column (perftest's)",
      cxxopts::value<std::string>(),
      "TIME")("json",
              "Write the results JSON (as --out's) to standard output; the table and every message "
              "go to standard error")(
      "output",
      "Print one number per benchmark row on standard output, for scripts (as perftest "
      "--output): bandwidth (Gb/s, the BW avg column), message_rate (Mpps) or latency (usec, "
      "t_p50); the table and every message go to standard error",
      cxxopts::value<std::string>(), "FIGURE")(
      "dry-run",
      "Print the benchmarks this command line would run, how long each goes and an estimate of "
      "the whole, then exit: no device opened, no server reached")(
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
      cxxopts::value<std::string>())(
      "limits-file",
      "JSON of --min-bw and --max-lat per machine type (DMI product_name), with a default: "
      "this host takes its own entry (docs/guide.md, \"Thresholds per machine type\")",
      cxxopts::value<std::string>());
  options.parse_positional({"host"});
  return options;
}

}  // namespace rdmabench
