#include "search/search_state.h"

#include "core/error.h"
#include "core/exit_codes.h"

namespace rdmabench {

namespace {

Error bad_state(const std::string& why) {
  return Error(ExitCode::kInvalidFile, "search state file: " + why +
                                           " (remove it, or give another --state, to start anew)");
}

nlohmann::json observation_json(const Point& point, const Observation& o) {
  nlohmann::json j = {{"point", point}, {"runs", o.runs}};
  if (!o.error.empty()) j["error"] = o.error, j["exit_code"] = o.exit_code;
  return j;
}

// One measured point of the file, checked against the space.
std::pair<Point, Observation> saved_point_from(const nlohmann::json& j, const SearchSpace& space) {
  if (!j.is_object() || !j.contains("point") || !j["point"].is_object() || !j.contains("runs") ||
      !j["runs"].is_array())
    throw bad_state("a point without its point and runs");
  std::pair<Point, Observation> out;
  for (const auto& [option, value] : j["point"].items()) {
    if (!value.is_string() || !space.index_of(option, value.get<std::string>()))
      throw bad_state("a point outside the search's space (" + option.substr(0, 30) + ")");
    out.first[option] = value.get<std::string>();
  }
  if (out.first.size() != space.dimensions().size()) throw bad_state("a point of another space");
  for (const auto& run : j["runs"]) {
    if (!run.is_object()) throw bad_state("a run that is not an object of counters");
    Counters c;
    for (const auto& [name, value] : run.items()) {
      if (!value.is_number()) throw bad_state("counter " + name.substr(0, 40) + " is not a number");
      c[name] = value.get<double>();
    }
    out.second.runs.push_back(std::move(c));
  }
  if (j.contains("error")) {
    if (!j["error"].is_string()) throw bad_state("a point's error is not text");
    out.second.error = j["error"].get<std::string>();
    const nlohmann::json& code = j.contains("exit_code") ? j["exit_code"] : nlohmann::json();
    if (!code.is_number_integer() || !is_exit_code(code.get<int64_t>()))
      throw bad_state("a point's exit code is not one of rdmabench's");
    out.second.exit_code = static_cast<int>(code.get<int64_t>());
  }
  return out;
}

}  // namespace

nlohmann::json dimension_json(const Dimension& d) {
  return {{"option", d.option}, {"values", d.values},   {"fallback", d.fallback},
          {"start", d.start},   {"ordered", d.ordered}, {"flag", d.flag}};
}

nlohmann::json search_state_json(const SearchSpace& space, const MeasuredPoints& measured,
                                 const nlohmann::json& settings) {
  nlohmann::json dims = nlohmann::json::array(), points = nlohmann::json::array();
  for (const Dimension& d : space.dimensions()) dims.push_back(dimension_json(d));
  for (const auto& [key, p] : measured.all()) points.push_back(observation_json(p.first, p.second));
  return {{"schema", kSearchStateSchema},
          {"settings", settings},
          {"space", dims},
          {"spent_s", measured.spent()},
          {"points", points}};
}

void restore_search_state(const nlohmann::json& state, const SearchSpace& space,
                          const nlohmann::json& settings, MeasuredPoints& measured) {
  if (!state.is_object() || !state.contains("schema") || state["schema"] != kSearchStateSchema)
    throw bad_state("not a " + std::string(kSearchStateSchema) + " file");
  nlohmann::json dims = nlohmann::json::array();
  for (const Dimension& d : space.dimensions()) dims.push_back(dimension_json(d));
  if (state.value("space", nlohmann::json()) != dims)
    throw bad_state("it searched another space (--space, or another rdmabench)");
  if (state.value("settings", nlohmann::json()) != settings)
    throw bad_state("it was made with other settings (repetitions, iterations, host)");
  if (!state.contains("points") || !state["points"].is_array() || !state.contains("spent_s") ||
      !state["spent_s"].is_number() || state["spent_s"].get<double>() < 0)
    throw bad_state("no points or no seconds spent");
  for (const auto& j : state["points"]) {
    auto [point, observation] = saved_point_from(j, space);
    measured.restore(point, std::move(observation));
  }
  measured.add_spent(state["spent_s"].get<double>());
}

}  // namespace rdmabench
