// `rdmabench serve`
#include "cli/serve_command.h"

#include <cxxopts.hpp>
#include <iostream>

#include "cli/option_checks.h"
#include "control/server.h"
#include "datapath/thread_team.h"
#include "verbs/error.h"

namespace rdmabench {

int run_serve_command(int argc, char** argv) {
  cxxopts::Options options("rdmabench serve",
                           "Serve benchmarks to rdmabench clients, one at a time, until SIGINT/"
                           "SIGTERM. Clients choose every test parameter; nothing has to match "
                           "here but --port.");
  options.add_options()("p,port", "TCP control port",
                        cxxopts::value<int64_t>()->default_value("18515"))(
      "d,device", "RDMA device for --cm oob clients (default: the first)",
      cxxopts::value<std::string>()->default_value(""))(
      "ib-port", "The device's port for --cm oob clients (like perftest -i)",
      cxxopts::value<uint32_t>()->default_value("1"))(
      "timeout", "Seconds any blocking step may take within a test",
      cxxopts::value<double>()->default_value("5"))("once", "Exit after serving one client")(
      "cpus",
      "Pin server thread t (a client's --threads) to the t-th CPU of this list (0,2 or 4-7); "
      "default: the CPUs of the NUMA node the device hangs off, on a host of several nodes",
      cxxopts::value<std::string>())(
      "numa",
      "N: run on node N's CPUs with buffers in its memory; off: neither (default: "
      "each device's own node, when it has one and the host has several)",
      cxxopts::value<std::string>())(
      "debug-corrupt",
      "Testing only: in --verify check runs, damage what the server sends (from the middle message "
      "on), so that the client's checks must fail")("h,help", "Show help");
  const auto args = options.parse(argc, argv);
  if (args.count("help")) {
    std::cout << options.help() << "\nExit status: 0 after a signal, 3 no device, 4 port in use.\n";
    return 0;
  }
  ServerOptions so;
  so.port = port_option(args["port"].as<int64_t>());
  so.device = args["device"].as<std::string>();
  so.ib_port = ib_port_option(args["ib-port"].as<uint32_t>());
  so.timeout = timeout_option(args["timeout"].as<double>());
  so.once = args.count("once") > 0;
  so.debug_corrupt = args.count("debug-corrupt") > 0;
  if (args.count("cpus")) so.cpus = parse_cpu_list(args["cpus"].as<std::string>());
  if (args.count("numa")) so.numa = numa_option(args["numa"].as<std::string>());
  return run_server(so, std::cout);
}

}  // namespace rdmabench
