// rdmabench: entry point and subcommand dispatch.
#include <openssl/crypto.h>

#include <algorithm>
#include <ctime>
#include <cxxopts.hpp>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/argument_bounds.h"
#include "cli/parse_error.h"
#include "cli/subcommands.h"
#include "core/exit_codes.h"
#include "core/printable_text.h"
#include "core/version.h"
#include "verbs/verbs_error.h"

namespace {

using rdmabench::subcommands;

// What the C library and libcrypto read from the host's files at their first use, read now:
// the time zone (at the first local time or strftime) and OpenSSL's configuration (at the first
// random bytes, such as an rdma_cm setup's challenge, or TLS context). A first use later can
// come while a peer waits on this process, and in a guest whose root is the host's
// (tools/rxe-vm) a file read is a wait for the host, which the deterministic guest's clock
// jumps over: a server so read openssl.cnf inside a client's setup.
void read_library_configuration() {
  tzset();
  OPENSSL_init_crypto(OPENSSL_INIT_LOAD_CONFIG, nullptr);
}

void print_usage(std::ostream& out) {
  out << "rdmabench " << rdmabench::kVersion << ": RDMA verbs bandwidth and latency benchmarks\n\n"
      << "Usage: rdmabench <command> [options]   (rdmabench help <command> for details)\n\n"
      << "Commands:\n";
  size_t widest = 0;  // the names in one column, what each does in the next (no tab)
  for (const auto& [name, cmd] : subcommands()) widest = std::max(widest, name.size());
  for (const auto& [name, cmd] : subcommands())
    out << "  " << name << std::string(widest - name.size() + 3, ' ') << cmd.summary << "\n";
  out << "\n" << rdmabench::exit_status_help();
}

}  // namespace

// The command line after main's rewriting: the subcommand and its arguments.
static int run_command_line(int argc, char** argv) {
  using rdmabench::ExitCode;
  if (argc < 2) {
    print_usage(std::cerr);
    return static_cast<int>(ExitCode::kUsage);
  }
  try {
    rdmabench::check_argument_lengths(argc, argv, rdmabench::longest_argument());
  } catch (const rdmabench::Error& e) {
    std::cerr << "rdmabench: " << e.what() << "\n";
    return static_cast<int>(e.exit_code());
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
    const std::string advice = rdmabench::unknown_command_advice(name);
    std::cerr << "rdmabench: unknown command '"
              << rdmabench::printable(name, rdmabench::Keep::kPrintableAscii, 60) << "'"
              << (advice.empty()
                      ? ""
                      : "; " + rdmabench::printable(advice, rdmabench::Keep::kPrintableAscii, 120))
              << "\n\n";
    print_usage(std::cerr);
    return static_cast<int>(ExitCode::kUsage);
  }
  try {
    return it->second.run(argc - 1, argv + 1);
  } catch (const cxxopts::exceptions::exception& e) {
    std::cerr << "rdmabench " << name << ": "
              << rdmabench::printable(rdmabench::explain_parse_error(e.what(), argc - 1, argv + 1))
              << " (see --help)\n";
    return static_cast<int>(ExitCode::kUsage);
  } catch (const rdmabench::Error& e) {
    std::cerr << "rdmabench " << name << ": " << rdmabench::printable(e.what()) << "\n";
    return static_cast<int>(e.exit_code());
  } catch (const std::exception& e) {
    std::cerr << "rdmabench " << name << ": internal error: " << rdmabench::printable(e.what())
              << "\n";
    return static_cast<int>(ExitCode::kInternal);
  }
}

int main(int argc, char** argv) {
  read_library_configuration();
  std::vector<char*> args(argv, argv + argc);
  // `rdmabench help run` is `rdmabench run --help` (it printed the top-level help).
  static char help_flag[] = "--help";
  if (args.size() == 3 && std::string_view(args[1]) == "help") args = {args[0], args[2], help_flag};
  // argv ends in a null pointer, as C promises: MPI_Init_thread (rdmabench mesh) walks it to
  // that end under srun, and read past the copy's end (a segfault in opal_argv_join).
  const int count = static_cast<int>(args.size());
  args.push_back(nullptr);
  return run_command_line(count, args.data());
}
