#include "search/report_replay.h"

#include <sstream>

#include "core/error.h"
#include "search/confirmation.h"
#include "search/search_report.h"

namespace rdmabench {

namespace {

Error bad_report(const std::string& why) {
  return Error(ExitCode::kInvalidFile, "search report: " + why);
}

std::string number_text(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

Point point_from(const nlohmann::json& j, const SearchSpace& space) {
  if (!j.is_object()) throw bad_report("a finding's point is not an object");
  Point p;
  for (const Dimension& d : space.dimensions()) {
    if (!j.contains(d.option) || !j[d.option].is_string() ||
        !space.index_of(d.option, j[d.option].get<std::string>()))
      throw bad_report("a finding's point has no value of its space for " + d.option);
    p[d.option] = j[d.option].get<std::string>();
  }
  return p;
}

nlohmann::json band_of(const Rule& rule, const Observation& o) {
  const auto b = figure_band(rule, o);
  if (!b) return {{"error", o.error.empty() ? "no such figure" : o.error}};
  return {{"low", b->low}, {"median", b->median}, {"high", b->high}};
}

// The report's setting `name`, a number within [lo, hi]; `absent` where it has none.
double setting(const nlohmann::json& report, const char* name, double lo, double hi,
               double absent) {
  const nlohmann::json none;
  const nlohmann::json& settings =
      report.is_object() && report.contains("settings") ? report["settings"] : none;
  if (!settings.is_object() || !settings.contains(name)) return absent;
  const nlohmann::json& v = settings[name];
  if (!v.is_number() || !(v.get<double>() >= lo && v.get<double>() <= hi))
    throw bad_report(std::string("settings.") + name + " is not a number " + number_text(lo) +
                     ".." + number_text(hi));
  return v.get<double>();
}

// The smallest effect the report's search judged by (a report from before --min-effect: 0).
double min_effect_of(const nlohmann::json& report) {
  return setting(report, "min_effect", 0, 1, 0);
}

// A finding's point ("low" or "high": an object holding "point").
Point point_of(const nlohmann::json& f, const char* which, const SearchSpace& space) {
  const nlohmann::json& side = f[which];
  if (!side.is_object() || !side.contains("point"))
    throw bad_report(std::string("a finding's ") + which + " has no point");
  return point_from(side["point"], space);
}

nlohmann::json replay_one(const nlohmann::json& f, const SearchSpace& space, SearchTarget& target,
                          unsigned repetitions, double min_effect, const std::string& label) {
  if (!f.is_object() || !f.contains("rule") || !f["rule"].is_string() || !f.contains("low"))
    throw bad_report("a finding without its rule and points");
  const Rule* rule = find_rule(f["rule"].get<std::string>());
  if (rule == nullptr)
    throw bad_report("unknown rule " + f["rule"].get<std::string>().substr(0, 60));
  const Point low = point_of(f, "low", space);
  const Point high = f.contains("high") ? point_of(f, "high", space) : low;
  MeasuredPoints measured(target, repetitions, 1e18, min_effect);
  const Judgement j = judge_again(space, measured, *rule, low, high);
  const auto band_at = [&](const Point& p) {
    for (const auto& [point, observation] : j.again)
      if (point == p) return band_of(*rule, observation);
    return nlohmann::json{{"error", "not measured"}};
  };
  return {{"label", label},
          {"replayed", j.holds.has_value()},
          {"low", band_at(low)},
          {"high", band_at(high)}};
}

}  // namespace

RunLength report_run_length(const nlohmann::json& report) {
  const double iterations = setting(report, "iters", 0, 100'000'000, 0);
  if (iterations >= 1) return {static_cast<uint64_t>(iterations), 0, 0};
  const double duration = setting(report, "duration_s", 0.01, 60, 0);
  const double margin = setting(report, "margin_s", 0, 10, 0);
  if (duration == 0) throw bad_report("its settings say neither iters nor duration_s");
  // whole milliseconds, as run carries them
  return {0, static_cast<uint64_t>(duration * 1e3) * 1'000'000,
          static_cast<uint64_t>(margin * 1e3) * 1'000'000};
}

unsigned report_repetitions(const nlohmann::json& report) {
  return static_cast<unsigned>(setting(report, "repetitions", 2, 20, 3));
}

void check_search_report(const nlohmann::json& report) {
  if (!report.is_object() || !report.contains("schema") ||
      report["schema"] != kSearchReportSchema || !report.contains("findings") ||
      !report["findings"].is_array())
    throw bad_report(std::string("not a ") + kSearchReportSchema + " report");
}

SearchSpace space_from_json(const nlohmann::json& dimensions) {
  if (!dimensions.is_array() || dimensions.empty()) throw bad_report("no space");
  std::vector<Dimension> dims;
  for (const auto& d : dimensions) {
    if (!d.is_object() || !d.contains("option") || !d.contains("values") ||
        !d["values"].is_array() || d["values"].empty())
      throw bad_report("a dimension without its option and values");
    try {
      dims.push_back({d["option"], d["values"], d.value("fallback", ""), d.value("start", ""),
                      d.value("ordered", false), d.value("flag", false)});
    } catch (const nlohmann::json::exception&) {
      throw bad_report("a dimension whose option or values are not text");
    }
  }
  return SearchSpace(std::move(dims));
}

nlohmann::json replay_report(nlohmann::json report, SearchTarget& target, unsigned repetitions,
                             const std::string& label) {
  check_search_report(report);
  const SearchSpace space = space_from_json(report.value("space", nlohmann::json()));
  const double min_effect = min_effect_of(report);
  for (auto& f : report["findings"]) {
    nlohmann::json replay = replay_one(f, space, target, repetitions, min_effect, label);
    if (!f.contains("replays")) f["replays"] = nlohmann::json::array();
    f["replays"].push_back(std::move(replay));
  }
  return report;
}

}  // namespace rdmabench
