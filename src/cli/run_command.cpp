// `rdmabench run HOST`: the client. Builds the benchmark list, connects to the server, runs
// everything through Google Benchmark and writes its JSON.
#include "cli/run_command.h"

#include <algorithm>
#include <cxxopts.hpp>
#include <fstream>
#include <iostream>
#include <sstream>

#include "core/device_report.h"
#include "core/version.h"
#include "engine/benchmark_suite.h"
#include "engine/clock.h"
#include "engine/control_protocol.h"
#include "engine/device_probe.h"
#include "engine/host_info.h"
#include "engine/spec_validation.h"
#include "engine/table_reporter.h"
#include "engine/timing_environment.h"
#include "verbs/cm_id.h"
#include "verbs/device_list.h"

namespace rdmabench {

namespace {

template <typename T>
std::vector<T> parse_list(const std::string& text, std::optional<T> (*parse)(const std::string&),
                          const std::vector<T>& all, const char* option) {
  if (text == "all") return all;
  std::vector<T> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    auto v = parse(item);
    if (!v)
      throw Error(ExitCode::kUsage, std::string("--") + option + ": unknown value '" + item + "'");
    out.push_back(*v);
  }
  if (out.empty()) throw Error(ExitCode::kUsage, std::string("--") + option + " is empty");
  return out;
}

bool is_loopback(const std::string& host) {
  return host.rfind("127.", 0) == 0 || host == "localhost" || host == "::1";
}

struct BootstrapChoice {
  Bootstrap method;
  std::string reason;
  std::string device;  // the local device the traffic will use
};

// --cm auto: rdma_cm when the server's address resolves to an RDMA device and a route.
BootstrapChoice choose_bootstrap(const std::string& requested, const std::string& host,
                                 uint16_t port, const std::string& device,
                                 std::chrono::milliseconds timeout) {
  auto first_device = [&] { return device.empty() ? DeviceList().open().device_name() : device; };
  if (requested == "oob") return {Bootstrap::kOob, "requested", first_device()};
  if (requested == "auto" && is_loopback(host))
    return {Bootstrap::kOob, "loopback address (rdma_cm cannot route 127.0.0.1 on rxe)",
            first_device()};
  try {
    CmEventChannel channel;
    CmId probe(channel);
    probe.resolve(host, port, timeout);
    const std::string name = ibv_get_device_name(probe.verbs()->device);
    return {Bootstrap::kRdmaCm, requested == "auto" ? "address maps to " + name : "requested",
            name};
  } catch (const Error& e) {
    if (requested == "rdmacm")
      throw Error(ExitCode::kConnection, std::string("--cm rdmacm: ") + e.what());
    return {Bootstrap::kOob, std::string("rdma_cm could not resolve the server: ") + e.what(),
            first_device()};
  }
}

}  // namespace

int run_run_command(int argc, char** argv) {
  cxxopts::Options options(
      "rdmabench run",
      "Run benchmarks against `rdmabench serve` on HOST. One Google Benchmark per "
      "pattern/mode/cq/size, named like write/bw/busy/65536; --benchmark_* flags work as usual "
      "(filter, repetitions, min_time).");
  options.positional_help("HOST [--benchmark_...]");
  options.allow_unrecognised_options();
  options.add_options()("host", "Server address", cxxopts::value<std::string>())(
      "p,port", "Server's TCP control port", cxxopts::value<uint16_t>()->default_value("18515"))(
      "pattern", "send,write,write_imm,read or all",
      cxxopts::value<std::string>()->default_value("all"))(
      "mode", "bw,lat or all", cxxopts::value<std::string>()->default_value("all"))(
      "cq", "busy,event or all: how both sides harvest completions",
      cxxopts::value<std::string>()->default_value("all"))(
      "sizes", "Message sizes: 2:8M (powers of two), 4096, 2,64K,1M",
      cxxopts::value<std::string>()->default_value("2:8M"))(
      "iters",
      "Messages per benchmark run (like perftest -n); default: Google Benchmark decides "
      "from --benchmark_min_time",
      cxxopts::value<uint64_t>())("tx-depth", "Outstanding send work requests (bw)",
                                  cxxopts::value<uint32_t>()->default_value("128"))(
      "rx-depth", "Posted receives at the receiver",
      cxxopts::value<uint32_t>()->default_value("512"))(
      "signal-every", "Request a completion every N sends (selective signalling)",
      cxxopts::value<uint32_t>()->default_value("16"))(
      "cm", "auto, rdmacm or oob (out-of-band QP exchange over TCP)",
      cxxopts::value<std::string>()->default_value("auto"))(
      "d,device", "Local RDMA device for --cm oob (default: the first)",
      cxxopts::value<std::string>()->default_value(""))(
      "gid-index", "GID index (default: as `rdmabench devices` marks it)",
      cxxopts::value<uint32_t>())("mtu", "Path MTU in bytes for --cm oob (default: the active MTU)",
                                  cxxopts::value<uint32_t>()->default_value("0"))(
      "timeout", "Seconds any blocking step may take",
      cxxopts::value<double>()->default_value("5"))(
      "warmup", "Messages run before each benchmark's timing starts, left out of every figure",
      cxxopts::value<uint64_t>()->default_value("16"))(
      "wait", "Seconds to wait for a server that is busy with another client",
      cxxopts::value<double>()->default_value("120"))(
      "no-wait", "Fail at once when the server is busy with another client")(
      "verify",
      "After each benchmark's timed runs, run its messages once more, untimed, with every "
      "message checked by its receiver")(
      "debug-corrupt", "Testing only: in --verify check runs, damage what the client sends")(
      "out", "Write Google Benchmark JSON (with rdmabench context) to FILE",
      cxxopts::value<std::string>())("h,help", "Show help");
  options.parse_positional({"host"});
  const auto args = options.parse(argc, argv);
  if (args.count("help")) {
    std::cout << options.help()
              << "\nExit status: 0 ok, 2 usage, 3 no device, 4 connection, 5 runtime (completion "
                 "error/timeout), 6 verification failure.\n";
    return 0;
  }
  if (!args.count("host"))
    throw Error(ExitCode::kUsage, "missing HOST (the address of `rdmabench serve`)");

  SuiteOptions so;
  so.host = args["host"].as<std::string>();
  so.port = args["port"].as<uint16_t>();
  so.timeout = std::chrono::milliseconds(static_cast<int64_t>(args["timeout"].as<double>() * 1000));
  if (const double t = args["timeout"].as<double>(); !(t >= 0.001 && t <= 86400))
    throw Error(ExitCode::kUsage, "--timeout must be between 0.001 and 86400 seconds");
  const double wait_s = args["wait"].as<double>();
  if (!(wait_s >= 0)) throw Error(ExitCode::kUsage, "--wait must be 0 or more seconds");
  so.wait.wait = std::chrono::milliseconds(
      args.count("no-wait") ? 0 : static_cast<int64_t>(std::min(wait_s, 1e9) * 1000));
  so.device = args["device"].as<std::string>();
  so.patterns = parse_list<Pattern>(args["pattern"].as<std::string>(), parse_pattern,
                                    {std::begin(kAllPatterns), std::end(kAllPatterns)}, "pattern");
  so.modes = parse_list<Mode>(args["mode"].as<std::string>(), parse_mode,
                              {Mode::kBandwidth, Mode::kLatency}, "mode");
  so.cq_modes = parse_list<CqMode>(args["cq"].as<std::string>(), parse_cq_mode,
                                   {CqMode::kBusy, CqMode::kEvent}, "cq");
  so.sizes = parse_sizes(args["sizes"].as<std::string>());
  if (args.count("iters")) {
    so.iterations = args["iters"].as<uint64_t>();
    if (*so.iterations == 0 || *so.iterations > kMaxIterations)
      throw Error(ExitCode::kUsage,
                  "--iters must be between 1 and " + std::to_string(kMaxIterations));
  }
  so.warmup = args["warmup"].as<uint64_t>();
  if (so.warmup > kMaxIterations)
    throw Error(ExitCode::kUsage, "--warmup must be at most " + std::to_string(kMaxIterations));
  TestSpec& base = so.base;
  base.tx_depth = args["tx-depth"].as<uint32_t>();
  base.rx_depth = args["rx-depth"].as<uint32_t>();
  base.signal_every = args["signal-every"].as<uint32_t>();
  base.verify = args.count("verify") > 0;
  so.debug_corrupt = args.count("debug-corrupt") > 0;
  base.mtu = args["mtu"].as<uint32_t>();
  if (args.count("gid-index")) base.gid_index = args["gid-index"].as<uint32_t>();
  validate_spec(base);  // the device's limits are checked below, once it is open
  const std::string cm = args["cm"].as<std::string>();
  if (cm != "auto" && cm != "rdmacm" && cm != "oob")
    throw Error(ExitCode::kUsage, "--cm must be auto, rdmacm or oob");

  std::string out_file;
  if (args.count("out")) {
    out_file = args["out"].as<std::string>();
    std::ofstream probe(out_file, std::ios::app);
    if (!probe) throw Error(ExitCode::kUsage, "--out " + out_file + ": cannot write there");
  }

  const ClockCheck clock = verify_clock();
  const TimingEnvironment timing = timing_environment();
  const BootstrapChoice choice = choose_bootstrap(cm, so.host, so.port, so.device, so.timeout);
  base.bootstrap = choice.method;
  if (base.mtu != 0 && choice.method == Bootstrap::kRdmaCm)
    std::cerr << "rdmabench: note: --mtu applies to --cm oob only; rdma_cm uses the path MTU\n";

  // Reject sizes the local device cannot carry before anything runs.
  const DeviceReport local = [&] {
    DeviceList list;
    Context ctx = list.open(choice.device);
    for (uint64_t size : so.sizes) {
      TestSpec probe = base;
      probe.size = size;
      check_device_limits(ctx, 1, probe);
    }
    return describe_device(ctx);
  }();

  BootstrapOptions bo;
  bo.device = so.device;
  bo.server_host = so.host;
  bo.timeout = so.timeout;
  auto session = connect_when_free(so.host, so.port, bo, so.wait, std::cerr);
  const auto& hello = session->server_hello();

  const PortReport& port = local.ports.at(0);
  std::string gid_type = "-";
  const uint32_t gid_index = base.gid_index.value_or(port.default_gid_index.value_or(0));
  for (const auto& g : port.gids)
    if (g.index == gid_index) gid_type = to_string(g.type);

  nlohmann::json params = to_json(base);
  params.erase("pattern");
  params.erase("mode");
  params.erase("cq");
  params.erase("size");
  params["patterns"] = args["pattern"].as<std::string>();
  params["modes"] = args["mode"].as<std::string>();
  params["cq_modes"] = args["cq"].as<std::string>();
  params["sizes"] = args["sizes"].as<std::string>();
  params["iters"] = so.iterations ? nlohmann::json(*so.iterations) : nlohmann::json(nullptr);
  params["timeout_s"] = args["timeout"].as<double>();
  params["warmup"] = so.warmup;
  params["server"] = so.host + ":" + std::to_string(so.port);

  const std::vector<std::pair<std::string, std::string>> context = {
      {"rdmabench_schema", "1"},
      {"rdmabench_version", kVersion},
      {"client_host", host_name()},
      {"server_host", hello.value("hostname", std::string("?"))},
      {"server_version", hello.value("version", std::string("?"))},
      {"device", local.name},
      {"driver", local.driver},
      {"link_layer", port.link_layer},
      {"active_mtu", std::to_string(port.active_mtu)},
      {"gid_index", std::to_string(gid_index)},
      {"gid_type", gid_type},
      {"client_kernel", kernel_release()},
      {"server_kernel", hello.value("kernel", std::string("?"))},
      {"rdma_core", rdma_core_version()},
      {"server_rdma_core", hello.value("rdma_core", std::string("?"))},
      {"bootstrap", to_string(choice.method)},
      {"bootstrap_reason", choice.reason},
      {"timing", timing.describe()},
      {"timing_mode", timing.mode},
      {"icount_shift", timing.icount_shift},
      {"qemu_version", timing.qemu_version},
      {"server_timing", hello.value("timing", std::string("?"))},
      {"clock", "CLOCK_MONOTONIC, resolution " + std::to_string(clock.resolution_ns) + " ns"},
      {"rdmabench_params", params.dump()},
  };
  std::ostringstream summary;
  summary << "rdmabench " << kVersion << ": " << local.name << " (" << local.driver << ", "
          << port.link_layer << ", MTU " << port.active_mtu << ", GID " << gid_index << " "
          << gid_type << ") -> " << hello.value("hostname", std::string("?")) << " " << so.host
          << ":" << so.port << " via " << to_string(choice.method) << " (" << choice.reason
          << ")\n";
  if (timing.deterministic()) summary << "timing: " << timing.describe() << "\n";
  for (const auto& [k, v] : context) benchmark::AddCustomContext(k, v);

  std::vector<std::string> gb_args = {"rdmabench-run"};
  for (const auto& u : args.unmatched()) gb_args.push_back(u);
  if (!out_file.empty()) {
    gb_args.push_back("--benchmark_out=" + out_file);
    gb_args.push_back("--benchmark_out_format=json");
  }
  std::vector<char*> gb_argv;
  for (auto& a : gb_args) gb_argv.push_back(a.data());
  int gb_argc = static_cast<int>(gb_argv.size());
  benchmark::Initialize(&gb_argc, gb_argv.data());
  if (gb_argc > 1)
    throw Error(ExitCode::kUsage, std::string("unknown option '") + gb_argv[1] + "'");

  const StopSignals stop;
  so.stop = &stop;
  so.wait.stop = &stop;
  BenchmarkSuite suite(so, std::move(session));
  suite.register_benchmarks();
  TableReporter reporter(summary.str());
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  if (!out_file.empty()) std::cerr << "rdmabench: results written to " << out_file << "\n";
  if (suite.worst() != ExitCode::kOk)
    std::cerr << "rdmabench: some benchmarks failed (marked ERROR above and in the JSON)\n";
  return static_cast<int>(suite.worst());
}

}  // namespace rdmabench
