#include "cli/search_command.h"

#include <cxxopts.hpp>
#include <filesystem>
#include <iostream>
#include <optional>

#include "cli/number_options.h"
#include "cli/search_dimensions.h"
#include "cli/search_preview.h"
#include "cli/search_request.h"
#include "cli/serve_search_target.h"
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

nlohmann::json settings_of(const SearchRequest& r) {
  nlohmann::json settings = {{"host", r.target.server.address.host},
                             {"port", r.target.server.address.port},
                             {"repetitions", r.repetitions},
                             {"min_effect", r.min_effect},
                             {"warmup", r.target.length.warmup},
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

int run_search_request(const SearchSpace& asked, const SearchRequest& r) {
  const nlohmann::json settings = settings_of(r);
  const std::optional<nlohmann::json> state = state_to_resume(r);
  ServeSearchTarget target(asked, r.target, UnsetDimensions::kLeftOut);
  const SearchSpace& space = target.space();
  for (const std::string& option : target.left_out())
    std::cerr << "rdmabench search: --" << option << " is not searched: over "
              << target.bootstrap_name() << " only the out-of-band bootstrap sets it\n";
  MeasuredPoints measured(target, r.repetitions, r.budget_s, r.min_effect);
  measured.set_point_limit(r.points);
  keep_state(r, state, space, settings, measured);
  // The budget bounds the whole search from here (a resumed one's: what it has left).
  target.end_by(std::chrono::steady_clock::now() +
                std::chrono::milliseconds(std::llround((r.budget_s - measured.spent()) * 1e3)));
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
  if (!args.count("iters") && !args.count("duration") && !args.count("margin")) {
    target_options.length = report_run_length(report);
    target_options.length.warmup = r.target.length.warmup;  // --warmup, here as in the search
  }
  const unsigned repetitions =
      args.count("repetitions") ? r.repetitions : report_repetitions(report);
  ServeSearchTarget target(space, target_options, UnsetDimensions::kKept);
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
  const cxxopts::ParseResult args = parse_search_arguments(options, argc, argv);
  if (args.count("help")) {
    std::cout << options.help() << "\n" << value_spellings_help() << "\n" << exit_status_help();
    return 0;
  }
  check_search_arguments(options, args);
  const SearchSpace space = restrict_space(search_dimensions(), args["space"].as<std::string>());
  if (args.count("list-space")) {
    list_space(space);
    return 0;
  }
  if (args.count("list-rules")) {
    list_rules();
    return 0;
  }
  const SearchRequest r = search_request_of(args);
  if (args.count("dry-run")) {
    if (args.count("replay"))
      throw Error(ExitCode::kUsage,
                  "--dry-run plans a search; --replay measures a report's findings again: give "
                  "one of them");
    std::cout << search_preview(space, r);
    return 0;
  }
  if (args.count("replay")) return run_replay(args, r);
  check_writable(r.out_file, "--out");
  return run_search_request(space, r);
}

}  // namespace rdmabench
