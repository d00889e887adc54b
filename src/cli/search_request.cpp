#include "cli/search_request.h"

#include <chrono>
#include <string>

#include "cli/number_options.h"
#include "cli/option_checks.h"
#include "cli/parse_error.h"
#include "cli/repeated_options.h"
#include "cli/search_dimensions.h"
#include "cli/server_connection.h"
#include "cli/unknown_options.h"
#include "core/error.h"
#include "core/exit_codes.h"
#include "search/search_space.h"

namespace rdmabench {

using namespace std::chrono_literals;

namespace {

// --points: a search's state file holds every point (a million would be hundreds of MiB).
constexpr uint64_t kMaxSearchPoints = 100'000;

// --budget: a second to a week.
double budget_seconds(const std::string& text) {
  const std::chrono::nanoseconds budget = parse_time_option(text, "--budget", {1s, 168h, 1ms});
  return std::chrono::duration<double>(budget).count();
}

// A point's timed window and its margin, in the whole milliseconds a run carries.
uint64_t window_option(const cxxopts::ParseResult& args, const char* name,
                       std::chrono::milliseconds lo, std::chrono::milliseconds hi) {
  return static_cast<uint64_t>(time_option(args, name, {lo, hi, 1ms}).count());
}

// A timed window (--duration, --margin), or --iters.
RunLength run_length_of(const cxxopts::ParseResult& args) {
  if (!args.count("iters"))
    return {0, window_option(args, "duration", 10ms, 60s), window_option(args, "margin", 0ms, 10s)};
  if (args.count("duration") || args.count("margin"))
    throw Error(ExitCode::kUsage, "give --iters or --duration and --margin, not both");
  return {count_option(args, "iters", 1, 100'000'000), 0, 0};
}

}  // namespace

cxxopts::Options search_options() {
  cxxopts::Options o("rdmabench search",
                     "Hunts for performance anomalies against `rdmabench serve` on HOST: explores "
                     "the registered patterns, transports, CQ strategies and the run options "
                     "with a declared range, judges each measured line by registered "
                     "expectations beyond its own measured noise, shrinks each violation to the "
                     "fewest options that still show it, and measures that again.");
  o.positional_help("HOST");
  o.add_options()("budget",
                  "Wall-clock time to spend: 90s, 20m, 1h (70 % searching, the rest shrinking)",
                  cxxopts::value<std::string>()->default_value("30m"), "TIME")(
      "points",
      "At most this many points while searching (a resumed search's count), whatever time "
      "--budget has left; shrinking and measuring again what was found take more within it "
      "(default: as many as --budget allows)",
      cxxopts::value<std::string>(), "COUNT")(
      "space", "Restrict the space: 'pattern=write,read sizes=4K:1M qps=1:16' (see --list-space)",
      cxxopts::value<std::string>()->default_value(""))(
      "list-space", "Print the dimensions searched, their values and starts, and exit")(
      "list-rules", "Print the expectations judged (name, sentence, figure, option), and exit")(
      "dry-run",
      "Print what the search would do (its space, each point's length, where it stops, its "
      "files and an estimate), then exit: no device opened, no server reached")(
      "replay",
      "REPORT: measure each finding of an earlier report again here (in the deterministic "
      "guest, on other hosts) and add what came out to the report",
      cxxopts::value<std::string>())("replay-label", "What the replay is called in the report",
                                     cxxopts::value<std::string>()->default_value("replay"))(
      "min-effect",
      "The smallest difference reported, in percent of the figure (beyond the noise too)",
      cxxopts::value<std::string>()->default_value("2"),
      "NUMBER")("repetitions", "Timed runs per point (its noise band: 2..20)",
                cxxopts::value<std::string>()->default_value("3"), "COUNT")(
      "duration",
      "Each point's timed run (500ms, 2s), the same at every point (its start-up outside it; "
      "a rate is known to a burst of what is in flight: a slow link needs longer)",
      cxxopts::value<std::string>()->default_value("500ms"),
      "TIME")("margin", "Time run before and after each timed run, in no figure",
              cxxopts::value<std::string>()->default_value("100ms"), "TIME")(
      "iters",
      "Messages per QP per timed run instead (at most 64 MiB a run over its QPs): points then "
      "run for different times, and a run's start-up weighs differently at each",
      cxxopts::value<std::string>(), "COUNT")("warmup", "Messages before a point's timed runs",
                                              cxxopts::value<std::string>()->default_value("16"),
                                              "COUNT")(
      "method", "guided, or random (the baseline: random short lines, nothing refined)",
      cxxopts::value<std::string>()->default_value("guided"))(
      "seed", "Seed of the random lines", cxxopts::value<std::string>()->default_value("1"), "N")(
      "state", "State file, written after every point; an existing one is resumed",
      cxxopts::value<std::string>()->default_value("search-state.json"))(
      "out", "The report (JSON)",
      cxxopts::value<std::string>()->default_value("search-report.json"))("h,help", "This help");
  add_server_connection(o, "Connection (as `rdmabench run` takes them)");
  o.parse_positional({"host"});
  return o;
}

cxxopts::ParseResult parse_search_arguments(cxxopts::Options& options, int argc, char** argv) {
  try {
    options.allow_unrecognised_options();
    return options.parse(argc, argv);
  } catch (const cxxopts::exceptions::exception& e) {
    throw Error(ExitCode::kUsage, explain_parse_error(e.what(), argc, argv) + " (see --help)");
  }
}

SearchRequest search_request_of(const cxxopts::ParseResult& args) {
  SearchRequest r;
  if (!args.count("host"))
    throw Error(ExitCode::kUsage, "missing HOST (the address of `rdmabench serve`)");
  r.target.server = server_connection_of(args);
  oob_only_reason(r.target.server);  // --ib-port with --cm rdmacm is refused before the device
  r.target.length = run_length_of(args);
  r.target.length.warmup = warmup_option(args);
  r.budget_s = budget_seconds(args["budget"].as<std::string>());
  if (args.count("points")) {
    r.points = static_cast<size_t>(count_option(args, "points", 1, kMaxSearchPoints));
  }
  r.space = args["space"].as<std::string>();
  r.repetitions = count_option32(args, "repetitions", 2, 20);  // the noise band needs two
  const std::string method = args["method"].as<std::string>();
  if (method != "guided" && method != "random")
    throw Error(ExitCode::kUsage, "--method: guided or random");
  r.method = method == "guided" ? SearchMethod::kGuided : SearchMethod::kRandom;
  r.min_effect = decimal_option(args, "min-effect", 0, 100) / 100;  // a percentage
  r.seed = number_option(args, "seed", 0, UINT32_MAX, "a seed");
  r.state_file = args["state"].as<std::string>();
  r.out_file = args["out"].as<std::string>();
  return r;
}

void check_search_arguments(const cxxopts::Options& options, const cxxopts::ParseResult& args) {
  refuse_repeated_options(options, args);
  check_unmatched(args.unmatched(), options,
                  {"search", args.count("host") ? args["host"].as<std::string>() : ""});
}

SearchRequest parse_search_request(int argc, char** argv) {
  cxxopts::Options options = search_options();
  const cxxopts::ParseResult args = parse_search_arguments(options, argc, argv);
  check_search_arguments(options, args);
  (void)restrict_space(search_dimensions(), args["space"].as<std::string>());
  return search_request_of(args);
}

}  // namespace rdmabench
