// rdmabench: entry point and subcommand dispatch.
#include <cxxopts.hpp>
#include <iostream>
#include <map>
#include <string_view>
#include <vector>

#include "cli/devices_command.h"
#include "cli/doctor_command.h"
#include "cli/mesh_command.h"
#include "cli/parse_error.h"
#include "cli/run_command.h"
#include "cli/serve_command.h"
#include "cli/study_command.h"
#include "cli/version_command.h"
#include "core/version.h"
#include "verbs/error.h"

namespace {

using Command = int (*)(int, char**);

struct Subcommand {
  Command run;
  const char* summary;
};

const std::map<std::string_view, Subcommand>& subcommands() {
  static const std::map<std::string_view, Subcommand> table = {
      {"devices", {rdmabench::run_devices_command, "list RDMA devices, ports and GIDs"}},
      {"doctor",
       {rdmabench::run_doctor_command,
        "pre-flight check of this host: ports, PCIe, NUMA, governor, GIDs, memlock"}},
      {"serve", {rdmabench::run_serve_command, "serve benchmarks to clients (one at a time)"}},
      {"run", {rdmabench::run_run_command, "run benchmarks against a server, write JSON"}},
      {"study",
       {rdmabench::run_study_command,
        "a preset sweep: polling (CQ strategies x loads, with repetitions)"}},
      {"mesh",
       {rdmabench::run_mesh_command,
        "all-pairs fabric check, one rank per host under mpirun or srun; names slow hosts"}},
      {"version",
       {rdmabench::run_version_command,
        "the version; --json: protocol, schemas, registered patterns and CQ strategies"}},
  };
  return table;
}

void print_usage(std::ostream& out) {
  out << "rdmabench " << rdmabench::kVersion << ": RDMA verbs bandwidth and latency benchmarks\n\n"
      << "Usage: rdmabench <command> [options]   (rdmabench help <command> for details)\n\n"
      << "Commands:\n";
  for (const auto& [name, cmd] : subcommands()) out << "  " << name << "\t" << cmd.summary << "\n";
  out << "\nExit status: 0 ok, 1 internal error, 2 usage, 3 no device / device setup,\n"
      << "4 connection, 5 runtime (completion error or timeout), 6 verification failure,\n"
      << "7 mesh found slow pairs or hosts, 8 a run missed --min-bw or --max-lat,\n"
      << "9 a fatal asynchronous event of the device (port down, QP or CQ in error),\n"
      << "10 doctor warned, 11 a doctor check failed.\n";
}

}  // namespace

// The command line after main's rewriting: the subcommand and its arguments.
static int run_command_line(int argc, char** argv) {
  using rdmabench::ExitCode;
  if (argc < 2) {
    print_usage(std::cerr);
    return static_cast<int>(ExitCode::kUsage);
  }
  const std::string_view name = argv[1];
  if (name == "-h" || name == "--help" || name == "help") {
    print_usage(std::cout);
    return 0;
  }
  if (name == "--version") {
    std::cout << "rdmabench " << rdmabench::kVersion << "\n";
    return 0;
  }
  const auto it = subcommands().find(name);
  if (it == subcommands().end()) {
    std::cerr << "rdmabench: unknown command '" << name << "'\n\n";
    print_usage(std::cerr);
    return static_cast<int>(ExitCode::kUsage);
  }
  try {
    return it->second.run(argc - 1, argv + 1);
  } catch (const cxxopts::exceptions::exception& e) {
    std::cerr << "rdmabench " << name << ": "
              << rdmabench::explain_parse_error(e.what(), argc - 1, argv + 1) << " (see --help)\n";
    return static_cast<int>(ExitCode::kUsage);
  } catch (const rdmabench::Error& e) {
    std::cerr << "rdmabench " << name << ": " << e.what() << "\n";
    return static_cast<int>(e.exit_code());
  } catch (const std::exception& e) {
    std::cerr << "rdmabench " << name << ": internal error: " << e.what() << "\n";
    return static_cast<int>(ExitCode::kInternal);
  }
}

int main(int argc, char** argv) {
  std::vector<char*> args(argv, argv + argc);
  // `rdmabench help run` is `rdmabench run --help` (it printed the top-level help).
  static char help_flag[] = "--help";
  if (args.size() == 3 && std::string_view(args[1]) == "help") args = {args[0], args[2], help_flag};
  return run_command_line(static_cast<int>(args.size()), args.data());
}
