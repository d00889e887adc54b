#include "search/search_report.h"

#include <cmath>
#include <iomanip>
#include <ostream>

#include "search/search_state.h"

namespace rdmabench {

namespace {

// The counters that say what the wire did (resends, sequence errors, RNR NAKs, ...).
bool wire_counter(const std::string& name) {
  return name.starts_with("wire_");
}

// Wire counters whose medians differ between the two points when measured again (at a point
// rule's one point: those that are not 0).
nlohmann::json counters_moved(const SearchFinding& f) {
  nlohmann::json moved = nlohmann::json::object();
  std::map<std::string, bool> names;
  for (const Observation* o : {&f.again_low, &f.again_high})
    for (const Counters& run : o->runs)
      for (const auto& [name, value] : run)
        if (wire_counter(name)) names[name] = true;
  for (const auto& [name, unused] : names) {
    const auto a = f.again_low.band(name), b = f.again_high.band(name);
    const double at_low = a ? a->median : 0, at_high = b ? b->median : at_low;
    if (at_low != at_high || (f.shown.low == f.shown.high && at_low != 0))
      moved[name] = {{"low", at_low}, {"high", at_high}};
  }
  return moved;
}

nlohmann::json band_json(const Band& b) {
  return {{"low", b.low}, {"median", b.median}, {"high", b.high}};
}

// The figure's band at every measured point along the rule's dimension through the finding's
// first point, in the dimension's order (a point rule: that point alone).
nlohmann::json line_json(const SearchSpace& space, const SearchFinding& f,
                         const MeasuredPoints& measured) {
  const Rule& rule = *f.shown.rule;
  const std::string along(rule.along);
  nlohmann::json line = nlohmann::json::array();
  const Dimension* d = along.empty() ? nullptr : space.find(along);
  for (const std::string& value : d ? d->values : std::vector<std::string>{""}) {
    Point p = f.shown.low;
    if (d) p[along] = value;
    const auto it = measured.all().find(point_key(p));
    if (it == measured.all().end()) continue;
    if (const auto b = figure_band(rule, it->second.second))
      line.push_back({{"value", d ? value : ""}, {"band", band_json(*b)}});
  }
  return line;
}

nlohmann::json finding_json(const SearchSpace& space, const SearchFinding& f,
                            const SearchReportContext& context, const MeasuredPoints& measured) {
  const Rule& rule = *f.shown.rule;
  nlohmann::json j = {{"rule", rule.name},
                      {"says", rule.says},
                      {"counter", rule.counter},
                      {"along", rule.along},
                      {"options", f.options},
                      {"low",
                       {{"point", f.shown.low},
                        {"command", point_command(space, context, f.shown.low)},
                        {"band", band_json(f.shown.at_low)}}},
                      {"size", f.shown.size},
                      {"replayed", f.confirmed},
                      {"fully_shrunk", f.fully_shrunk},
                      {"shrink_measurements", f.shrink_measurements},
                      {"counters_moved", counters_moved(f)},
                      {"line", line_json(space, f, measured)}};
  if (f.shown.low != f.shown.high)
    j["high"] = {{"point", f.shown.high},
                 {"command", point_command(space, context, f.shown.high)},
                 {"band", band_json(f.shown.at_high)}};
  return j;
}

// Why a candidate is not a finding.
std::string not_confirmed_why(const SearchFinding& f) {
  if (!f.measured_again) return "the budget ended before it was measured again";
  for (const Observation* o : {&f.again_low, &f.again_high})
    if (!o->error.empty()) return "failed when measured again: " + o->error.substr(0, 200);
  return "not shown again";
}

nlohmann::json band_or_error(const Rule& rule, const Observation& o) {
  if (const auto b = figure_band(rule, o)) return band_json(*b);
  return {{"error", o.error.empty() ? "not measured" : o.error}};
}

nlohmann::json unconfirmed_json(const SearchSpace& space, const SearchFinding& f,
                                const SearchReportContext& context) {
  const Rule& rule = *f.shown.rule;
  const auto side = [&](const Point& p, const Band& first, const Observation& again) {
    return nlohmann::json{{"point", p},
                          {"command", point_command(space, context, p)},
                          {"band", band_json(first)},
                          {"again", band_or_error(rule, again)}};
  };
  nlohmann::json j = {{"rule", rule.name},
                      {"options", f.options},
                      {"low", side(f.shown.low, f.shown.at_low, f.again_low)},
                      {"size", f.shown.size},
                      {"why", not_confirmed_why(f)}};
  if (f.shown.low != f.shown.high) j["high"] = side(f.shown.high, f.shown.at_high, f.again_high);
  return j;
}

}  // namespace

std::string point_command(const SearchSpace& space, const SearchReportContext& context,
                          const Point& point) {
  const std::string options = options_text(space, point);
  const std::string length = context.length ? " " + run_length_options(point, *context.length) : "";
  return context.command_head + length + (options.empty() ? "" : " " + options);
}

nlohmann::json search_report_json(const SearchSpace& space, const SearchResult& result,
                                  const SearchReportContext& context,
                                  const MeasuredPoints& measured) {
  nlohmann::json findings = nlohmann::json::array(), dims = nlohmann::json::array();
  nlohmann::json unconfirmed = nlohmann::json::array();
  for (const SearchFinding& f : result.findings)
    findings.push_back(finding_json(space, f, context, measured));
  for (const SearchFinding& f : result.unconfirmed)
    unconfirmed.push_back(unconfirmed_json(space, f, context));
  for (const Dimension& d : space.dimensions()) dims.push_back(dimension_json(d));
  return {{"schema", kSearchReportSchema},
          {"settings", context.settings},
          {"space", dims},
          {"spent_s", context.spent_s},
          {"measurements", context.measurements},
          {"violations", result.violations.size()},
          {"pairs",
           {{"total", result.pairs},
            {"refused", result.pairs_refused},
            {"on_lines", result.pairs_covered},
            {"cover_rows", result.cover_rows}}},
          {"windows",
           {{"counted", result.windows.counted},
            {"coarse", result.windows.coarse},
            {"no_rate", result.windows.no_rate}}},
          {"findings", findings},
          {"unconfirmed", unconfirmed}};
}

void print_search_report(std::ostream& out, const SearchSpace& space, const SearchResult& result,
                         const SearchReportContext& context) {
  out << "rdmabench search: " << context.measurements << " measurements in "
      << std::lround(context.spent_s) << " s, " << result.violations.size() << " violations, "
      << result.findings.size() << " findings, " << result.unconfirmed.size()
      << " candidates not confirmed\n"
      << "option pairs on measured lines: " << result.pairs_covered << " of " << result.pairs
      << (result.pairs == 0
              ? ""
              : " (" + std::to_string(100 * result.pairs_covered / result.pairs) + " %)")
      << ", " << result.pairs_refused << " the target takes no point of; " << result.cover_rows
      << " rows cover them\n";
  if (result.windows.coarse > 0)
    out << "windows: " << result.windows.coarse << " of " << result.windows.counted
        << " points a rate rule judges counted too few messages to resolve "
        << result.windows.min_effect * 100 << " % (" << result.windows.no_rate
        << " fewer than one burst of what they keep in flight, no rate): a longer --duration "
           "resolves them\n";
  for (size_t i = 0; i < result.findings.size(); ++i) {
    const SearchFinding& f = result.findings[i];
    const Rule& rule = *f.shown.rule;
    out << "\n" << i + 1 << ". " << rule.name << ": " << rule.says << " (" << rule.counter << ")\n";
    out << "   " << point_command(space, context, f.shown.low) << "\n      " << rule.counter << " "
        << std::setprecision(4) << f.shown.at_low.median << " (" << f.shown.at_low.low << "-"
        << f.shown.at_low.high << ")\n";
    if (f.shown.low != f.shown.high)
      out << "   " << point_command(space, context, f.shown.high) << "\n      " << rule.counter
          << " " << f.shown.at_high.median << " (" << f.shown.at_high.low << "-"
          << f.shown.at_high.high << ")\n";
    out << "   shown again, measured again interleaved with its other point"
        << (f.fully_shrunk ? "" : "; not fully shrunk (the budget ended)") << "\n";
  }
  if (result.unconfirmed.empty()) return;
  out << "\ncandidates not confirmed: " << result.unconfirmed.size()
      << " (not reported: their rule did not break again when their points were measured again)\n";
  for (const SearchFinding& f : result.unconfirmed)
    out << "   " << f.shown.rule->name << ": " << options_text(space, f.shown.low)
        << (f.shown.low == f.shown.high ? "" : " -> " + options_text(space, f.shown.high)) << ": "
        << not_confirmed_why(f) << "\n";
}

}  // namespace rdmabench
