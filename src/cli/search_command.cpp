#include "cli/search_command.h"

#include <cxxopts.hpp>
#include <filesystem>
#include <iostream>
#include <optional>

#include "cli/number_options.h"
#include "cli/option_checks.h"
#include "cli/parse_error.h"
#include "cli/search_dimensions.h"
#include "cli/serve_search_target.h"
#include "cli/server_connection.h"
#include "cli/unknown_options.h"
#include "core/bounded_json.h"
#include "core/error.h"
#include "core/exit_codes.h"
#include "core/output_file.h"
#include "core/printable_text.h"
#include "search/report_replay.h"
#include "search/search_report.h"
#include "search/search_run.h"
#include "search/search_state.h"

namespace rdmabench {

namespace {

// --points: a search's state file holds every point (a million would be hundreds of MiB).
constexpr uint64_t kMaxSearchPoints = 100'000;

struct SearchRequest {
  ServeTargetOptions target;
  double budget_s = 1800;
  size_t points = 0;  // --points: at most this many while searching (0: the budget alone)
  std::string space;
  unsigned repetitions = 3;
  double min_effect = kDefaultMinEffect;
  SearchMethod method = SearchMethod::kGuided;
  uint32_t seed = 1;
  std::string state_file, out_file;
};

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
                  cxxopts::value<std::string>()->default_value("30m"))(
      "points",
      "At most this many points while searching (a resumed search's count), whatever time "
      "--budget has left; shrinking and measuring again what was found take more within it "
      "(default: as many as --budget allows)",
      cxxopts::value<uint64_t>())(
      "space", "Restrict the space: 'pattern=write,read sizes=4K:1M qps=1:16' (see --list-space)",
      cxxopts::value<std::string>()->default_value(""))(
      "list-space", "Print the dimensions searched, their values and starts, and exit")(
      "list-rules", "Print the expectations judged (name, sentence, figure, option), and exit")(
      "replay",
      "REPORT: measure each finding of an earlier report again here (in the deterministic "
      "guest, on other hosts) and add what came out to the report",
      cxxopts::value<std::string>())("replay-label", "What the replay is called in the report",
                                     cxxopts::value<std::string>()->default_value("replay"))(
      "min-effect",
      "The smallest difference reported, in percent of the figure (beyond the noise too)",
      cxxopts::value<double>()->default_value("2"))("repetitions",
                                                    "Timed runs per point (its noise band)",
                                                    cxxopts::value<unsigned>()->default_value("3"))(
      "duration",
      "Seconds of each point's timed run, the same at every point (its start-up outside it; "
      "a rate is known to a burst of what is in flight: a slow link needs longer)",
      cxxopts::value<double>()->default_value("0.5"))(
      "margin", "Seconds run before and after each timed run, in no figure",
      cxxopts::value<double>()->default_value("0.1"))(
      "iters",
      "Messages per QP per timed run instead (at most 64 MiB a run over its QPs): points then "
      "run for different times, and a run's start-up weighs differently at each",
      cxxopts::value<uint64_t>())("warmup", "Messages before a point's timed runs",
                                  cxxopts::value<uint64_t>()->default_value("16"))(
      "method", "guided, or random (the baseline: random short lines, nothing refined)",
      cxxopts::value<std::string>()->default_value("guided"))(
      "seed", "Seed of the random lines", cxxopts::value<uint32_t>()->default_value("1"))(
      "state", "State file, written after every point; an existing one is resumed",
      cxxopts::value<std::string>()->default_value("search-state.json"))(
      "out", "The report (JSON)",
      cxxopts::value<std::string>()->default_value("search-report.json"))("h,help", "This help");
  add_server_connection(o, "Connection (as `rdmabench run` takes them)");
  o.parse_positional({"host"});
  return o;
}

double budget_seconds(const std::string& text) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  const std::string unit = text.substr(used);
  const double scale = unit.empty() || unit == "s" ? 1 : unit == "m" ? 60 : unit == "h" ? 3600 : 0;
  if (used == 0 || scale == 0 || !(v > 0) || v * scale > 7 * 86400)
    throw Error(ExitCode::kUsage,
                "--budget '" + text.substr(0, 20) + "': write 90s, 20m or 1h (at most a week)");
  return v * scale;
}

// A timed window (--duration, --margin), or --iters.
RunLength run_length_of(const cxxopts::ParseResult& args) {
  if (!args.count("iters"))
    return {0, seconds_option(args, "duration", 0.01, 60), seconds_option(args, "margin", 0, 10)};
  if (args.count("duration") || args.count("margin"))
    throw Error(ExitCode::kUsage, "give --iters or --duration and --margin, not both");
  const uint64_t iterations = args["iters"].as<uint64_t>();
  if (iterations < 1 || iterations > 100'000'000)
    throw Error(ExitCode::kUsage, "--iters must be 1..100000000");
  return {iterations, 0, 0};
}

SearchRequest request_of(const cxxopts::ParseResult& args) {
  SearchRequest r;
  if (!args.count("host"))
    throw Error(ExitCode::kUsage, "missing HOST (the address of `rdmabench serve`)");
  r.target.server = server_connection_of(args);
  oob_only_reason(r.target.server);  // --ib-port with --cm rdmacm is refused before the device
  r.target.length = run_length_of(args);
  r.target.warmup = args["warmup"].as<uint64_t>();
  r.budget_s = budget_seconds(args["budget"].as<std::string>());
  if (args.count("points")) {
    const uint64_t points = args["points"].as<uint64_t>();
    if (points < 1 || points > kMaxSearchPoints)
      throw Error(ExitCode::kUsage,
                  "--points must be 1.." + std::to_string(kMaxSearchPoints) + " (points measured)");
    r.points = static_cast<size_t>(points);
  }
  r.space = args["space"].as<std::string>();
  r.repetitions = args["repetitions"].as<unsigned>();
  if (r.repetitions < 2 || r.repetitions > 20)
    throw Error(ExitCode::kUsage, "--repetitions must be 2..20 (the noise band needs two)");
  const std::string method = args["method"].as<std::string>();
  if (method != "guided" && method != "random")
    throw Error(ExitCode::kUsage, "--method: guided or random");
  r.method = method == "guided" ? SearchMethod::kGuided : SearchMethod::kRandom;
  const double min_effect = args["min-effect"].as<double>();
  if (!(min_effect >= 0 && min_effect <= 100))
    throw Error(ExitCode::kUsage, "--min-effect must be a percentage, 0..100");
  r.min_effect = min_effect / 100;
  r.seed = args["seed"].as<uint32_t>();
  r.state_file = args["state"].as<std::string>();
  r.out_file = args["out"].as<std::string>();
  return r;
}

nlohmann::json settings_of(const SearchRequest& r) {
  nlohmann::json settings = {{"host", r.target.server.host},
                             {"port", r.target.server.port},
                             {"repetitions", r.repetitions},
                             {"min_effect", r.min_effect},
                             {"warmup", r.target.warmup},
                             {"method", r.method == SearchMethod::kGuided ? "guided" : "random"},
                             {"seed", r.seed}};
  const RunLength& length = r.target.length;
  if (!length.timed_window()) {
    settings["iters"] = length.iterations;
  } else {
    settings["duration_s"] = static_cast<double>(length.duration_ns) * 1e-9;
    settings["margin_s"] = static_cast<double>(length.margin_ns) * 1e-9;
  }
  return settings;
}

// Written whole (a state file read back, a report a tool reads): a temporary beside it, renamed.
void write_json(const std::string& path, const nlohmann::json& j, const std::string& option) {
  write_file_atomically(path, j.dump(1) + "\n", option);
}

void list_space(const SearchSpace& space) {
  for (const Dimension& d : space.dimensions()) {
    std::cout << d.option << " (start " << d.start << (d.fallback.empty() ? ", always given" : "")
              << "):";
    for (const std::string& v : d.values) std::cout << " " << v;
    std::cout << "\n";
  }
  std::cout << "points: " << space.size() << "\n";
}

std::string clock_text(double s) {
  const long t = std::lround(s);
  return std::to_string(t / 60) + ":" + (t % 60 < 10 ? "0" : "") + std::to_string(t % 60);
}

// The state file to resume, when there is one (read before any device is looked for: a bad
// file is a bad input, whatever the host has).
std::optional<nlohmann::json> state_to_resume(const SearchRequest& r) {
  if (!std::filesystem::exists(r.state_file)) return std::nullopt;
  return read_bounded_json_file(r.state_file, kFileBounds,
                                "search state file " + r.state_file + " (remove it to start anew)");
}

// Resumes `state` when there is one; writes the state file after every new point, with a line
// on standard error.
void keep_state(const SearchRequest& r, const std::optional<nlohmann::json>& state,
                const SearchSpace& space, const nlohmann::json& settings,
                MeasuredPoints& measured) {
  if (state) {
    restore_search_state(*state, space, settings, measured);
    std::cerr << "rdmabench search: resuming " << r.state_file << ": " << measured.all().size()
              << " points, " << clock_text(measured.spent()) << " spent\n";
  }
  check_writable(r.state_file, "--state");
  measured.on_measured([&, budget = r.budget_s](const Point& p, const Observation& o) {
    write_json(r.state_file, search_state_json(space, measured, settings), "--state");
    std::cerr << "search: " << measured.all().size()
              << (r.points != 0 ? " of " + std::to_string(r.points) : std::string()) << " points, "
              << clock_text(measured.spent()) << " of " << clock_text(budget) << ": "
              << options_text(space, p) << ": "
              << (o.ok() ? "ok" : "failed (" + o.error.substr(0, 120) + ")") << "\n";
  });
}

int run_search_request(const SearchSpace& space, const SearchRequest& r) {
  const nlohmann::json settings = settings_of(r);
  const std::optional<nlohmann::json> state = state_to_resume(r);
  ServeSearchTarget target(space, r.target);
  MeasuredPoints measured(target, r.repetitions, r.budget_s, r.min_effect);
  measured.set_point_limit(r.points);
  keep_state(r, state, space, settings, measured);
  if (r.method == SearchMethod::kGuided)
    std::cerr << "rdmabench search: choosing rows that hold the " << pair_count(space)
              << " pairs of values of the unordered options (run's checks of each row)\n";
  const SearchResult result = run_search(space, registered_rules(), measured, r.method, r.seed);
  write_json(r.state_file, search_state_json(space, measured, settings), "--state");
  SearchReportContext context{target.command_head(), settings, measured.spent(),
                              measured.all().size(), r.target.length};
  context.settings["budget_s"] = r.budget_s;
  if (r.points != 0) context.settings["points"] = r.points;
  context.settings["cm"] = target.bootstrap_name();
  write_json(r.out_file, search_report_json(space, result, context, measured), "--out");
  print_search_report(std::cout, space, result, context);
  std::cout << "\nreport: " << r.out_file << "; state: " << r.state_file << "\n";
  return 0;
}

void list_rules() {
  for (const Rule& r : registered_rules())
    std::cout << r.name << ": " << r.says << " (" << r.counter
              << (r.along.empty() ? "" : ", along --" + std::string(r.along))
              << (r.only_if.empty() ? "" : ", where " + std::string(r.only_if)) << ")\n";
}

int run_replay(const cxxopts::ParseResult& args, const SearchRequest& r) {
  const std::string path = args["replay"].as<std::string>();
  const nlohmann::json report = read_bounded_json_file(path, kFileBounds, "--replay " + path);
  check_search_report(report);
  const SearchSpace space = space_from_json(report.value("space", nlohmann::json()));
  check_searched(space, "search report");
  // Each point runs as the report's search ran it, unless told otherwise.
  ServeTargetOptions target_options = r.target;
  if (!args.count("iters") && !args.count("duration") && !args.count("margin"))
    target_options.length = report_run_length(report);
  const unsigned repetitions =
      args.count("repetitions") ? r.repetitions : report_repetitions(report);
  ServeSearchTarget target(space, target_options);
  const std::string label = args["replay-label"].as<std::string>();
  const nlohmann::json replayed = replay_report(report, target, repetitions, label);
  const std::string out = args.count("out") ? r.out_file : path;
  write_json(out, replayed, args.count("out") ? "--out" : "--replay");
  for (size_t i = 0; i < replayed["findings"].size(); ++i) {
    const auto& f = replayed["findings"][i];
    std::cout << i + 1 << ". " << f["rule"].get<std::string>() << ": "
              << (f["replays"].back()["replayed"].get<bool>() ? "shown again" : "NOT shown again")
              << " (" << label << ")\n";
  }
  std::cout << "report: " << out << "\n";
  return 0;
}

}  // namespace

int run_search_command(int argc, char** argv) {
  cxxopts::Options options = search_options();
  cxxopts::ParseResult args;
  try {
    options.allow_unrecognised_options();
    args = options.parse(argc, argv);
  } catch (const cxxopts::exceptions::exception& e) {
    throw Error(ExitCode::kUsage, explain_parse_error(e.what(), argc, argv) + " (see --help)");
  }
  if (args.count("help")) {
    std::cout << options.help() << "\n" << exit_status_help();
    return 0;
  }
  check_unmatched(args.unmatched(), options,
                  {"search", args.count("host") ? args["host"].as<std::string>() : ""});
  const SearchSpace space = restrict_space(search_dimensions(), args["space"].as<std::string>());
  if (args.count("list-space")) {
    list_space(space);
    return 0;
  }
  if (args.count("list-rules")) {
    list_rules();
    return 0;
  }
  const SearchRequest r = request_of(args);
  if (args.count("replay")) return run_replay(args, r);
  check_writable(r.out_file, "--out");
  return run_search_request(space, r);
}

}  // namespace rdmabench
