// `rdmabench serve`
#include "cli/serve_command.h"

#include <chrono>
#include <cxxopts.hpp>
#include <iostream>

#include "cli/channel_security_options.h"
#include "cli/cpus_option.h"
#include "cli/number_options.h"
#include "cli/option_checks.h"
#include "cli/repeated_options.h"
#include "cli/unknown_options.h"
#include "core/exit_codes.h"
#include "core/peer_address.h"
#include "host/host_memory.h"
#include "session/server.h"
#include "spec/test_spec.h"
#include "verbs/verbs_error.h"

namespace rdmabench {

using namespace std::chrono_literals;

namespace {

// Where it listens, whom it answers, and what any one client may ask.
void add_lockdown_options(cxxopts::Options& options) {
  options.add_options("Safe to leave running")(
      "bind", "Listen on this address of the host alone (default: every address)",
      cxxopts::value<std::string>())(
      "allow",
      "Answer only clients from these networks, CIDR[,CIDR...] (10.0.0.0/8,fd00::/8); "
      "others are refused before they are heard",
      cxxopts::value<std::string>())(
      "max-duration", "Time any one client may hold the server, every run included (10m, 1h)",
      cxxopts::value<std::string>(),
      "TIME")("max-memory",
              "Memory the server registers for one benchmark, at most (256M, 2G; default: half "
              "this host's memory, or the memlock limit where lower, and half its reserved huge "
              "pages)",
              cxxopts::value<std::string>())("max-qps", "QPs one benchmark may ask for, at most",
                                             cxxopts::value<std::string>(), "COUNT")(
      "max-threads", "Threads one benchmark may ask for, at most", cxxopts::value<std::string>(),
      "COUNT");
  add_channel_security(options, "Safe to leave running", ChannelSide::kServer);
}

void read_lockdown_options(const cxxopts::ParseResult& args, ServerOptions& so) {
  if (args.count("bind")) so.bind_address = args["bind"].as<std::string>();
  if (args.count("allow")) so.allow = AddressAllowList::parse(args["allow"].as<std::string>());
  so.tls = channel_security_of(args).context(TlsContext::Role::kServer);
  if (args.count("max-duration")) {
    so.caps.max_duration = std::chrono::duration_cast<std::chrono::milliseconds>(
        time_option(args, "max-duration", {1s, 24h, 1ms}));
  }
  if (args.count("max-memory")) {
    so.caps.max_memory_bytes = parse_one_size(args["max-memory"].as<std::string>(), "--max-memory");
  } else {
    if (const auto cap = default_pin_cap(this_host_memory())) {
      so.caps.max_memory_bytes = cap->bytes;
      so.caps.max_memory_default = cap->why;
    }
    so.caps.huge_pages_by_default = true;
    so.caps = with_huge_pages_now(so.caps);
  }
  if (args.count("max-qps")) so.caps.max_qps = count_option32(args, "max-qps", 1);
  if (args.count("max-threads")) so.caps.max_threads = count_option32(args, "max-threads", 1);
}

}  // namespace

int run_serve_command(int argc, char** argv) {
  cxxopts::Options options("rdmabench serve",
                           "Serve benchmarks to rdmabench clients, one at a time, until SIGINT/"
                           "SIGTERM. Clients choose every test parameter; the device, its port "
                           "and GID index and the CPUs are this server's own (the options "
                           "below); nothing has to match here but --port.");
  options.add_options()(
      "p,port", "TCP control port",
      cxxopts::value<std::string>()->default_value(std::to_string(kDefaultControlPort)),
      "N")("d,device",
           "RDMA device (default: the first; rdma_cm clients arrive through the device their "
           "route reaches, which must be this one when named)",
           cxxopts::value<std::string>())(
      "ib-port", "The device's port for --cm oob clients (like perftest -i)",
      cxxopts::value<std::string>()->default_value("1"),
      "N")("gid-index",
           "This server's GID index for --cm oob clients (like perftest -x on the server; default: "
           "as `rdmabench devices` marks it); a client's --gid-index is the client's own",
           cxxopts::value<std::string>(),
           "N")("timeout", "Time any blocking step may take within a test (5s, 500ms)",
                cxxopts::value<std::string>()->default_value("5s"),
                "TIME")("once", "Exit after serving one client")(
      "cpus",
      "Pin server thread t (a client's --threads) to the t-th CPU of this list (0,2 or 4-7); "
      "default: the CPUs of the NUMA node the device hangs off, on a host of several nodes",
      cxxopts::value<std::string>())(
      "numa",
      "N: run on node N's CPUs with buffers in its memory; off: neither (default: "
      "each device's own node, when it has one and the host has several)",
      cxxopts::value<std::string>())("h,help", "Show help");
  // Not in --help (its groups are listed there): for the suite's own tests.
  options.add_options("Testing")(
      "debug-corrupt",
      "Testing only: in --verify check runs, damage what the server sends (from the middle message "
      "on), so that the client's checks must fail");
  add_lockdown_options(options);
  options.allow_unrecognised_options();
  const auto args = options.parse(argc, argv);
  refuse_repeated_options(options, args);
  check_unmatched(args.unmatched(), options, {"serve"});
  if (args.count("help")) {
    std::cout << options.help({"", "Safe to leave running"}) << "\n"
              << value_spellings_help() << "\n"
              << exit_status_help();
    return 0;
  }
  ServerOptions so;
  so.port = port_option(args);
  so.local.device = text_option(args, "device");
  so.local.ib_port = ib_port_option(args);
  if (args.count("gid-index")) so.local.gid_index = gid_index_option(args);
  so.timeout = timeout_option(args);
  so.once = args.count("once") > 0;
  so.debug_corrupt = args.count("debug-corrupt") > 0;
  if (args.count("cpus")) so.cpus = parse_cpu_list(args["cpus"].as<std::string>());
  if (args.count("numa")) so.numa = numa_option(args["numa"].as<std::string>());
  read_lockdown_options(args, so);
  return run_server(so, std::cout);
}

}  // namespace rdmabench
