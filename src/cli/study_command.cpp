// rdmabench study polling: a preset of `rdmabench run` that sweeps completion strategies x
// patterns x sizes x offered loads, with repetitions; with --connections, the server's
// strategies x connections x aggregate loads, open loop (issue 68). Any run option given on the
// command line replaces the preset's value for it.
#include "cli/study_command.h"

#include <algorithm>
#include <iostream>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "cli/number_options.h"
#include "cli/run_command.h"
#include "core/comma_list.h"
#include "core/error.h"
#include "core/exit_codes.h"
#include "core/printable_text.h"
#include "cq/strategy.h"

namespace rdmabench {

namespace {

// One default of the polling study: its option and value, and the other options that replace
// it when given (a run is by --iters or by --duration, never both).
struct PresetOption {
  std::string option;
  std::string value;
  std::vector<std::string> replaced_by;
  std::string shown = {};  // what --help says for a value too long for its line ("": the value)
};

// The study's strategies: each registered one as it says the study runs it, both sides, then
// a busy client against an event server.
std::string studied_strategies() {
  std::string cq;
  for (const StrategyInfo& s : registered_strategies())
    if (!s.studied_as.empty()) cq += std::string(s.studied_as) + ";";
  return cq + "client=busy,server=event";
}

const std::vector<PresetOption>& polling_preset() {
  static const std::vector<PresetOption> preset = {
      {"--cq", studied_strategies(), {}},
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

// Round trips a second each connection carries at the study's two loads, and the loads' base:
// the least common multiple of the connection counts, so that every count splits each load
// evenly (1,16,64,256: 2560 and 10240 round trips a second).
constexpr uint64_t kLightPerBase = 10, kHeavyPerBase = 40;

uint64_t common_multiple(const std::vector<uint32_t>& counts) {
  uint64_t m = 1;
  for (const uint32_t n : counts) m = std::lcm(m, uint64_t{n});
  return m;
}

// The study along connections: each strategy of the polling preset on the server (the client,
// the load generator, polls busy), over `counts` connections on one thread at two aggregate
// loads, in 1 s windows; queue depths for one round trip out a connection.
std::vector<PresetOption> connections_preset(const std::string& counts_text) {
  std::vector<uint32_t> counts;
  for (const uint64_t n : parse_number_list(counts_text, "connections", 1, kMaxQps,
                                            "a connection count (examples: 1,16,64,256)"))
    counts.push_back(static_cast<uint32_t>(n));
  const uint64_t base = common_multiple(counts);
  if (base * kHeavyPerBase > kMaxRate)
    throw Error(ExitCode::kUsage, "--connections " + printable(counts_text.substr(0, 80)) +
                                      ": the counts' least common multiple (" +
                                      std::to_string(base) +
                                      ") makes loads above --rate's most; give counts that "
                                      "divide each other, such as 1,16,64,256");
  std::vector<std::string> servers;
  for (const CqChoice& c : parse_cq_choices(polling_preset().front().value)) {
    const std::string choice = "client=busy,server=" + c.server.text();
    if (std::find(servers.begin(), servers.end(), choice) == servers.end())
      servers.push_back(choice);
  }
  std::string cq, named;
  for (const std::string& s : servers) {
    cq += (cq.empty() ? "" : ";") + s;
    named += (named.empty() ? "" : ", ") + s.substr(s.find("server=") + 7);
  }
  return {{"--cq", cq, {}, "'client=busy,server=S;...' for each S of: " + named},
          {"--mode", "lat", {}},
          {"--pattern", "send", {}},
          {"--sizes", "2", {}},
          {"--qps", counts_text, {}},
          {"--load",
           std::to_string(base * kLightPerBase) + "," + std::to_string(base * kHeavyPerBase),
           {"--rate"}},
          {"--duration", "1", {"--iters"}},
          {"--margin", "0.2", {"--iters"}},
          {"--tx-depth", "32", {}},
          {"--rx-depth", "32", {}},
          {"--signal-every", "8", {}},
          {"--benchmark_repetitions", "2", {}},
          {"--out", "polling-connections.json", {}}};
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

void print_preset(std::ostream& out, const std::vector<PresetOption>& preset) {
  for (const PresetOption& p : preset) {
    // Google Benchmark's flags take their value after '=' only.
    const char* joint = p.option.starts_with("--benchmark_") ? "=" : " ";
    out << "  " << p.option << joint << (p.shown.empty() ? shell_quoted(p.value) : p.shown);
    for (const std::string& other : p.replaced_by) out << "  (or give " << other << ")";
    out << "\n";
  }
}

void print_help(std::ostream& out) {
  out << "Usage: rdmabench study polling HOST [--connections N,N,...] [run options]\n\n"
      << "Sweeps completion strategies x patterns x sizes x offered loads against `rdmabench "
         "serve` on HOST,\nwith repetitions, and writes one JSON file for `tools/plot` (its "
         "tradeoff, ladder and load figures).\nIt is `rdmabench run` with these defaults; any "
         "of them given on the command line wins:\n";
  print_preset(out, polling_preset());
  out << "\nWith --connections (1,16,64,256 for instance), the server's strategies over that "
         "many connections\non one thread at two aggregate loads, open loop, for `tools/plot`'s "
         "connections figure;\nfor 1,16,64,256 these defaults:\n";
  print_preset(out, connections_preset("1,16,64,256"));
  out << "\nEvery `rdmabench run --help` option applies.\n\n" << exit_status_help();
}

// Takes --connections LIST (or --connections=LIST) out of `args`: the list, or "" without it.
std::string take_connections(std::vector<std::string>& args) {
  const std::string flag = "--connections";
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] != flag && !args[i].starts_with(flag + "=")) continue;
    const bool joined = args[i] != flag;
    if (!joined && i + 1 == args.size())
      throw Error(ExitCode::kUsage, "--connections needs its counts, such as 1,16,64,256");
    std::string counts = joined ? args[i].substr(flag.size() + 1) : args[i + 1];
    args.erase(args.begin() + static_cast<std::ptrdiff_t>(i),
               args.begin() + static_cast<std::ptrdiff_t>(i + (joined ? 1 : 2)));
    return counts.empty() ? throw Error(ExitCode::kUsage, "--connections: no counts given")
                          : counts;
  }
  return "";
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
  const std::string connections = take_connections(args);
  for (const PresetOption& p :
       connections.empty() ? polling_preset() : connections_preset(connections))
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
