// rdmabench study polling: a preset of `rdmabench run` that sweeps completion strategies x
// patterns x sizes x offered loads, with repetitions. Any run option given on the command
// line replaces the preset's value for it.
#include "cli/study_command.h"

#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "cli/run_command.h"
#include "core/error.h"

namespace rdmabench {

namespace {

// The polling study's defaults: option, value.
const std::vector<std::pair<std::string, std::string>>& polling_preset() {
  static const std::vector<std::pair<std::string, std::string>> preset = {
      {"--cq", "busy;event;epoll;hybrid:50;adaptive;client=busy,server=event"},
      {"--mode", "lat"},
      {"--pattern", "send,write_imm"},  // write lat waits for arrival by polling memory
      {"--sizes", "2,4K"},
      {"--rate", "0,1000,5000,20000"},
      {"--iters", "2000"},
      {"--benchmark_repetitions", "3"},
      {"--out", "polling-study.json"},
  };
  return preset;
}

bool given(const std::vector<std::string>& args, const std::string& option) {
  for (const std::string& a : args)
    if (a == option || a.starts_with(option + "=")) return true;
  return false;
}

void print_help(std::ostream& out) {
  out << "Usage: rdmabench study polling HOST [run options]\n\n"
      << "Sweeps completion strategies x patterns x sizes x offered loads against `rdmabench "
         "serve` on HOST,\nwith repetitions, and writes one JSON file for `tools/plot` (its "
         "tradeoff, ladder and load figures).\nIt is `rdmabench run` with these defaults; any "
         "of them given on the command line wins:\n";
  for (const auto& [option, value] : polling_preset())
    out << "  " << option << " " << value << "\n";
  out << "\nEvery `rdmabench run --help` option applies.\n";
}

}  // namespace

int run_study_command(int argc, char** argv) {
  const std::string study = argc > 1 ? argv[1] : "";
  if (study == "-h" || study == "--help") {
    print_help(std::cout);
    return 0;
  }
  if (study != "polling")
    throw Error(ExitCode::kUsage, "unknown study '" + study.substr(0, 40) +
                                      "'; the studies: polling (rdmabench study polling HOST)");
  std::vector<std::string> args = {"study polling"};
  for (int i = 2; i < argc; ++i) args.emplace_back(argv[i]);
  if (given(args, "--help") || given(args, "-h")) {
    print_help(std::cout);
    return 0;
  }
  for (const auto& [option, value] : polling_preset())
    if (!given(args, option)) args.push_back(option + "=" + value);
  std::vector<char*> run_argv;
  for (std::string& a : args) run_argv.push_back(a.data());
  run_argv.push_back(nullptr);
  return run_run_command(static_cast<int>(args.size()), run_argv.data());
}

}  // namespace rdmabench
