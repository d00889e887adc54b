#include "cli/unknown_options.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

#include "core/error.h"

namespace rdmabench {

namespace {

// perftest's flags (ib_write_bw and friends) as rdmabench spells them.
constexpr std::array<std::pair<std::string_view, std::string_view>, 47> kPerftestSpellings{{
    {"-n", "--iters N"},
    {"-s", "--sizes BYTES"},
    {"--size", "--sizes BYTES"},
    {"-a", "--sizes 2:8M"},
    {"--all", "--sizes 2:8M"},
    {"-D", "--duration SECONDS"},
    {"-q", "--qps N"},
    {"--qp", "--qps N"},
    {"--ib-dev", "--device NAME"},
    {"-e", "--cq event"},
    {"--events", "--cq event"},
    {"-b", "--bidir"},
    {"--bidirectional", "--bidir"},
    {"-t", "--tx-depth N"},
    {"-r", "--rx-depth N"},
    {"-x", "--gid-index N"},
    {"-m", "--mtu BYTES"},
    {"-u", "--qp-timeout N"},
    {"-S", "--sl N"},
    {"-T", "--tclass N"},
    {"--tos", "--tclass N"},
    {"--use_hugepages", "--hugepages"},
    {"--rate_limit", "--rate N (bw: messages a QP per second) or --rate 2.5gbps"},
    {"-o", "--outs N"},
    {"-Q", "--signal-every N"},
    {"--cq-mod", "--signal-every N"},
    {"-R", "--cm rdmacm"},
    {"--rdma_cm", "--cm rdmacm"},
    {"-c", "--transport (RC is the default)"},
    {"--connection", "--transport (RC is the default)"},
    {"-F", "not needed: rdmabench does not read the CPU frequency"},
    {"--CPU-freq", "not needed: rdmabench does not read the CPU frequency"},
    {"--report_gbits", "not needed: the bandwidth table prints MiB/s and Gb/s"},
    {"--run_infinitely", "--duration SECONDS --report-every S"},
    {"-i", "--ib-port N"},
    {"-w", "--min-bw GBPS"},
    {"--limit_bw", "--min-bw GBPS"},
    {"-y", "--max-lat p99:US"},
    {"--limit_lat", "--max-lat p99:US"},
    {"-l", "--post-list N"},
    {"--post_list", "--post-list N"},
    {"-I", "--inline N"},
    {"--inline_size", "--inline N"},
    {"--use-srq", "--srq"},
    {"--use_srq", "--srq"},
    {"--use_old_post_send", "--post-api classic"},
    {"-p", "--port N"},
}};

// Google Benchmark's switches that need no value.
constexpr std::array<std::string_view, 5> kBareSwitches{
    "--benchmark_list_tests", "--benchmark_enable_random_interleaving",
    "--benchmark_counters_tabular", "--benchmark_report_aggregates_only",
    "--benchmark_display_aggregates_only"};

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string> long_options(const cxxopts::Options& options) {
  std::vector<std::string> names;
  for (const std::string& group : options.groups())
    for (const auto& option : options.group_help(group).options)
      for (const std::string& name : option.l) names.push_back("--" + name);
  return names;
}

// The nearest long option, when it is close: a prefix of it, or two edits away at most; of
// two as near, one that begins with the same letter (--itr: --iters, not --mtu).
std::string nearest_long_option(const std::string& flag, const cxxopts::Options& options) {
  std::string best;
  size_t best_score = 2 * 3;
  for (const std::string& name : long_options(options)) {
    const size_t d = name.starts_with(flag) && flag.size() > 3 ? 1 : edit_distance(flag, name);
    const size_t score = 2 * d + (flag.size() > 2 && name[2] != flag[2] ? 1 : 0);
    if (score < best_score) best = name, best_score = score;
  }
  return best;
}

// Whether `advice` is an option of `options` (its first word), or a note that names none.
bool fits(std::string_view advice, const cxxopts::Options& options) {
  if (!advice.starts_with("--")) return true;
  const std::string option(advice.substr(0, advice.find(' ')));
  return std::ranges::count(long_options(options), option) > 0;
}

// The advice for one argument that `options` does not know: perftest's spelling mapped to
// ours (where this command has it), else the nearest long option, else "" (nothing close).
std::string suggestion_for(const std::string& argument, const cxxopts::Options& options) {
  const std::string flag = argument.substr(0, argument.find('='));
  for (const auto& [theirs, ours] : kPerftestSpellings)
    if (flag == theirs && fits(ours, options)) return std::string(ours);
  if (!flag.starts_with("--")) return "";
  return nearest_long_option(flag, options);
}

void check_benchmark_flag(const std::string& argument) {
  const bool bare = std::ranges::find(kBareSwitches, argument) != kBareSwitches.end();
  if (bare || argument.find('=') != std::string::npos) return;
  throw Error(ExitCode::kUsage, "'" + argument +
                                    "': Google Benchmark's flags take their value after '=' (" +
                                    argument + "=VALUE)");
}

std::string unexpected_positional(const std::string& argument, const ArgumentRules& rules) {
  const std::string shown = argument.substr(0, 60);
  if (rules.host.empty())
    return "unexpected argument '" + shown + "' (rdmabench " + rules.command +
           " takes options only; see rdmabench " + rules.command + " --help)";
  return "unexpected argument '" + shown + "' (HOST is already '" + rules.host +
         "'; an option's value follows its option)";
}

}  // namespace

void check_unmatched(const std::vector<std::string>& unmatched, const cxxopts::Options& options,
                     const ArgumentRules& rules) {
  for (const std::string& argument : unmatched) {
    if (rules.benchmark_flags && argument.starts_with("--benchmark_")) {
      check_benchmark_flag(argument);
      continue;
    }
    if (!argument.starts_with("-") || argument == "-")
      throw Error(ExitCode::kUsage, unexpected_positional(argument, rules));
    const std::string advice = suggestion_for(argument, options);
    const std::string hint = advice.empty()             ? ""
                             : advice.starts_with("--") ? "; did you mean " + advice + "?"
                                                        : "; " + advice;
    throw Error(ExitCode::kUsage, "unknown option '" + argument.substr(0, 60) + "'" + hint +
                                      " (see rdmabench " + rules.command + " --help)");
  }
}

}  // namespace rdmabench
