// rdmabench study polling: a preset of `rdmabench run` that sweeps completion strategies x
// patterns x sizes x offered loads, with repetitions. Any run option given on the command
// line replaces the preset's value for it.
#include "cli/study_command.h"

#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "cli/run_command.h"
#include "core/comma_list.h"
#include "core/error.h"
#include "core/exit_codes.h"
#include "cq/strategy.h"

namespace rdmabench {

namespace {

// One default of the polling study: its option and value, and the other options that replace
// it when given (a run is by --iters or by --duration, never both).
struct PresetOption {
  std::string option;
  std::string value;
  std::vector<std::string> replaced_by;
};

const std::vector<PresetOption>& polling_preset() {
  static const std::vector<PresetOption> preset = {
      {"--cq", "busy;event;epoll;hybrid:50;adaptive;client=busy,server=event", {}},
      {"--mode", "lat", {}},
      {"--pattern", "send,write_imm", {}},  // write lat waits for arrival by polling memory
      {"--sizes", "2,4K", {}},
      {"--rate", "0,1000,5000,20000", {}},
      {"--iters", "2000", {"--duration"}},
      {"--benchmark_repetitions", "3", {}},
      {"--out", "polling-study.json", {}},
  };
  return preset;
}

const std::string& preset_value(const std::string& option) {
  for (const PresetOption& p : polling_preset())
    if (p.option == option) return p.value;
  throw Error(ExitCode::kInternal, "the polling study has no preset " + option);
}

bool given(const std::vector<std::string>& args, const std::string& option) {
  for (const std::string& a : args)
    if (a == option || a.starts_with(option + "=")) return true;
  return false;
}

bool given(const std::vector<std::string>& args, const PresetOption& p) {
  if (given(args, p.option)) return true;
  for (const std::string& other : p.replaced_by)
    if (given(args, other)) return true;
  return false;
}

// `value` as a shell takes it: in single quotes when it holds anything but plain characters.
std::string shell_quoted(const std::string& value) {
  const bool plain = value.find_first_not_of(
                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                         "0123456789_,.:/=+-") == std::string::npos;
  return plain ? value : "'" + value + "'";
}

void print_help(std::ostream& out) {
  out << "Usage: rdmabench study polling HOST [run options]\n\n"
      << "Sweeps completion strategies x patterns x sizes x offered loads against `rdmabench "
         "serve` on HOST,\nwith repetitions, and writes one JSON file for `tools/plot` (its "
         "tradeoff, ladder and load figures).\nIt is `rdmabench run` with these defaults; any "
         "of them given on the command line wins:\n";
  for (const PresetOption& p : polling_preset()) {
    // Google Benchmark's flags take their value after '=' only.
    const char* joint = p.option.starts_with("--benchmark_") ? "=" : " ";
    out << "  " << p.option << joint << shell_quoted(p.value);
    for (const std::string& other : p.replaced_by) out << "  (or give " << other << ")";
    out << "\n";
  }
  out << "\nEvery `rdmabench run --help` option applies.\n\n" << exit_status_help();
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
  for (const PresetOption& p : polling_preset())
    if (!given(args, p)) args.push_back(p.option + "=" + p.value);
  std::vector<char*> run_argv;
  for (std::string& a : args) run_argv.push_back(a.data());
  run_argv.push_back(nullptr);
  return run_run_command(static_cast<int>(args.size()), run_argv.data());
}

std::vector<CqChoice> polling_study_cq_choices() {
  return parse_cq_choices(preset_value("--cq"));
}

std::vector<std::string> polling_study_patterns() {
  return split_comma_list(preset_value("--pattern"));
}

}  // namespace rdmabench
