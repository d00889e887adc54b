#include "cli/search_dimensions.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>

#include "bench/pattern_catalogue.h"
#include "cli/run_options.h"
#include "core/error.h"
#include "core/printable_text.h"
#include "cq/strategy.h"
#include "spec/transport.h"

namespace rdmabench {

namespace {

std::string size_text(uint64_t v) {
  if (v >= (1u << 20) && v % (1u << 20) == 0) return std::to_string(v >> 20) + "M";
  if (v >= 1024 && v % 1024 == 0) return std::to_string(v >> 10) + "K";
  return std::to_string(v);
}

Dimension ranged(const SearchedRange& r) {
  Dimension d{r.option, {}, r.fallback, r.start, !r.flag && r.listed.empty(), r.flag};
  if (!r.listed.empty()) {
    d.values = r.listed;
    return d;
  }
  if (r.flag) {
    d.values = {"off", "on"};
    return d;
  }
  for (uint64_t v = r.low; v <= r.high; v = r.every ? v + 1 : v * 2)
    d.values.push_back(r.size_units ? size_text(v) : std::to_string(v));
  return d;
}

// A strategy's searched choices: itself, or with arguments each at kArgumentSteps (every
// argument the same, within its maximum): hybrid:16, hybrid:256, moderated:16,16, ...
constexpr std::array<uint32_t, 2> kArgumentSteps = {16, 256};

std::vector<std::string> searched_choices(const StrategyInfo& s) {
  if (s.arguments == 0) return {std::string(s.name)};
  std::vector<std::string> out;
  for (const uint32_t step : kArgumentSteps) {
    std::string choice = std::string(s.name) + ":";
    for (unsigned a = 0; a < s.arguments; ++a)
      choice += (a ? "," : "") + std::to_string(std::min(step, s.argument_max[a]));
    if (std::find(out.begin(), out.end(), choice) == out.end()) out.push_back(choice);
  }
  return out;
}

Dimension registered(const std::string& option, std::vector<std::string> values,
                     const std::string& fallback, const std::string& start) {
  return {option, std::move(values), fallback, start, false};
}

// The value of a registered dimension: one of the names it lists.
template <typename T>
T named(const std::optional<T>& parsed, const std::string& value) {
  if (!parsed) throw Error(ExitCode::kInternal, "searched value '" + printable(value) + "'");
  return *parsed;
}

void set_pattern(BenchmarkMatrix& r, const std::string& v) {
  r.patterns = {{named(parse_pattern(v), v), {}}};  // at the point's size (request_at)
}
void set_mode(BenchmarkMatrix& r, const std::string& v) {
  r.modes = {named(parse_mode(v), v)};
}
void set_transport(BenchmarkMatrix& r, const std::string& v) {
  r.base.transport = named(parse_transport(v), v);
}
void set_cq(BenchmarkMatrix& r, const std::string& v) {
  r.cq_choices = parse_cq_choices(v);
}

}  // namespace

void check_searched(const SearchSpace& space, const std::string& file_kind) {
  const SearchSpace ours = search_dimensions();
  for (const Dimension& d : space.dimensions()) {
    const std::string option = "--" + printable(d.option, Keep::kPrintableAscii, 60);
    if (ours.find(d.option) == nullptr)
      throw Error(ExitCode::kInvalidFile, file_kind + ": its space explores " + option +
                                              ", which rdmabench search does not");
    for (const std::string& v : d.values)
      if (!ours.index_of(d.option, v))
        throw Error(ExitCode::kInvalidFile, file_kind + ": " + option + " value '" +
                                                printable(v, Keep::kPrintableAscii, 60) +
                                                "' is not one rdmabench search explores");
  }
}

PointSetter point_setter(const std::string& option) {
  static const std::map<std::string, PointSetter> setters = [] {
    std::map<std::string, PointSetter> out = {
        {"pattern", set_pattern}, {"mode", set_mode}, {"transport", set_transport}, {"cq", set_cq}};
    for (const SearchedRange& r : searched_ranges()) out[r.option] = r.set;
    return out;
  }();
  const auto it = setters.find(option);
  if (it == setters.end() || it->second == nullptr)
    throw Error(ExitCode::kInternal, "no setter for the searched option --" + printable(option));
  return it->second;
}

SearchSpace honoured_space(const SearchSpace& space, Bootstrap method,
                           std::vector<std::string>& left_out) {
  std::vector<Dimension> kept;
  for (const Dimension& d : space.dimensions()) {
    if (method == Bootstrap::kRdmaCm && is_oob_only_run_option(d.option))
      left_out.push_back(d.option);
    else
      kept.push_back(d);
  }
  return SearchSpace(std::move(kept));
}

SearchSpace search_dimensions() {
  std::vector<std::string> patterns, transports, strategies;
  for (const Pattern& p : registered_patterns()) patterns.push_back(p.name());
  for (const Transport& t : registered_transports()) transports.push_back(t.name());
  for (const StrategyInfo& s : registered_strategies())
    for (const std::string& choice : searched_choices(s)) strategies.push_back(choice);
  std::vector<Dimension> dims = {
      registered("pattern", patterns, "", "write"),
      registered("mode", {"bw", "lat"}, "", "bw"),
      registered("transport", transports, default_transport().name(), default_transport().name()),
      registered("cq", strategies, "", "busy"),
  };
  for (const SearchedRange& r : searched_ranges()) dims.push_back(ranged(r));
  return SearchSpace(std::move(dims));
}

}  // namespace rdmabench
