#include "cli/unknown_options.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "cli/foreign_spellings.h"
#include "cli/nearest_name.h"
#include "core/error.h"
#include "core/printable_text.h"

namespace rdmabench {

namespace {

// The most arguments one error names (a command line of thousands says how many more).
constexpr size_t kMostNamed = 20;

// Google Benchmark's switches that need no value.
constexpr std::array<std::string_view, 5> kBareSwitches{
    "--benchmark_list_tests", "--benchmark_enable_random_interleaving",
    "--benchmark_counters_tabular", "--benchmark_report_aggregates_only",
    "--benchmark_display_aggregates_only"};

std::vector<std::string> long_options(const cxxopts::Options& options) {
  std::vector<std::string> names;
  for (const std::string& group : options.groups())
    for (const auto& option : options.group_help(group).options)
      for (const std::string& name : option.l) names.push_back("--" + name);
  return names;
}

// Whether this command has the option `advice` names first (advice naming none fits every one).
bool fits(std::string_view advice, const cxxopts::Options& options) {
  const size_t at = advice.find("--");
  if (at == std::string_view::npos) return true;
  const std::string_view rest = advice.substr(at);
  const std::string option(rest.substr(0, rest.find(' ')));
  return std::ranges::count(long_options(options), option) > 0;
}

std::string shown(std::string_view argument) {
  return printable(argument, Keep::kPrintableAscii, 60);
}

// One unknown option, as the user wrote it: the flag, and its value (after '=', or the
// argument after it when that is no option and the flag may take one).
struct UnknownOption {
  std::string flag;
  std::string value;
  bool value_is_next = false;
};

UnknownOption unknown_option_at(const std::vector<std::string>& unmatched, size_t i) {
  const std::string& argument = unmatched[i];
  const size_t equals = argument.find('=');
  if (equals != std::string::npos) return {argument.substr(0, equals), argument.substr(equals + 1)};
  const auto spelling = foreign_spelling(argument);
  const bool may_take_value = !spelling || spelling->value != Value::kNone;
  const bool next_is_value = i + 1 < unmatched.size() && !unmatched[i + 1].starts_with("-");
  if (may_take_value && next_is_value) return {argument, unmatched[i + 1], true};
  return {argument, ""};
}

// What to write instead: perftest's or iperf3's spelling mapped to ours (where this command
// has it; both, where the two mean different things by one letter), else the nearest long
// option, else "" (nothing close).
std::string advice_for(const UnknownOption& o, const cxxopts::Options& options) {
  const auto spelling = foreign_spelling(o.flag);
  const bool perftest_fits = spelling && fits(spelling->ours, options);
  if (spelling && !spelling->iperf3.empty() && fits(spelling->iperf3, options))
    return "perftest's " + o.flag + " is " +
           (perftest_fits ? with_value(*spelling, o.value) : "not an option here") +
           "; iperf3's is " + std::string(spelling->iperf3);
  if (perftest_fits) return with_value(*spelling, o.value);
  if (!o.flag.starts_with("--")) return "";
  return nearest_name(o.flag, long_options(options), 2);
}

std::string unknown_option_text(const UnknownOption& o, const cxxopts::Options& options) {
  const std::string advice = advice_for(o, options);
  const std::string hint = advice.empty()             ? ""
                           : advice.starts_with("--") ? "; did you mean " + shown(advice) + "?"
                                                      : "; " + advice;
  return "unknown option '" + shown(o.flag) + "'" + hint;
}

std::string benchmark_flag_problem(const std::string& argument) {
  const bool bare = std::ranges::find(kBareSwitches, argument) != kBareSwitches.end();
  if (bare || argument.find('=') != std::string::npos) return "";
  return "'" + shown(argument) + "': Google Benchmark's flags take their value after '=' (" +
         shown(argument) + "=VALUE)";
}

std::string unexpected_positional(const std::string& argument, const ArgumentRules& rules) {
  if (rules.host.empty())
    return "unexpected argument '" + shown(argument) + "' (rdmabench " + rules.command +
           " takes options only)";
  return "unexpected argument '" + shown(argument) + "' (HOST is already '" + shown(rules.host) +
         "'; an option's value follows its option)";
}

// Every problem of the unmatched arguments, in their order.
std::vector<std::string> problems_of(const std::vector<std::string>& unmatched,
                                     const cxxopts::Options& options, const ArgumentRules& rules) {
  std::vector<std::string> problems;
  for (size_t i = 0; i < unmatched.size(); ++i) {
    const std::string& argument = unmatched[i];
    if (rules.benchmark_flags && argument.starts_with("--benchmark_")) {
      if (std::string p = benchmark_flag_problem(argument); !p.empty()) {
        problems.push_back(p);
        // the value it was given, after a space: part of the same problem
        if (i + 1 < unmatched.size() && !unmatched[i + 1].starts_with("-")) ++i;
      }
    } else if (!argument.starts_with("-") || argument == "-") {
      problems.push_back(unexpected_positional(argument, rules));
    } else {
      const UnknownOption o = unknown_option_at(unmatched, i);
      problems.push_back(unknown_option_text(o, options));
      if (o.value_is_next) ++i;
    }
  }
  return problems;
}

}  // namespace

void check_unmatched(const std::vector<std::string>& unmatched, const cxxopts::Options& options,
                     const ArgumentRules& rules) {
  const std::vector<std::string> problems = problems_of(unmatched, options, rules);
  const std::string see = "(see rdmabench " + rules.command + " --help)";
  if (problems.size() == 1) throw Error(ExitCode::kUsage, problems.front() + " " + see);
  if (problems.empty()) return;
  std::string text = std::to_string(problems.size()) + " arguments it does not take " + see + ":";
  for (size_t i = 0; i < std::min(problems.size(), kMostNamed); ++i) text += "\n  " + problems[i];
  if (problems.size() > kMostNamed)
    text += "\n  and " + std::to_string(problems.size() - kMostNamed) + " more";
  throw Error(ExitCode::kUsage, text);
}

}  // namespace rdmabench
