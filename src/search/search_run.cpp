#include "search/search_run.h"

#include <algorithm>
#include <map>
#include <set>

#include "search/confirmation.h"
#include "search/line_walk.h"
#include "search/space_search.h"

namespace rdmabench {

namespace {

// Rounds of searching then shrinking: what shrinking left of its share goes back to searching.
constexpr int kRounds = 3;

std::vector<Violation> search_with(SearchMethod method, const SearchSpace& space,
                                   const std::vector<Rule>& rules, MeasuredPoints& measured,
                                   uint32_t seed, const std::vector<Point>& rows) {
  return method == SearchMethod::kGuided ? guided_search(space, rules, measured, seed, rows)
                                         : random_search(space, rules, measured, seed);
}

// Whether `p` lies on a line the search measured: another point that ran differs from it in
// one judged dimension only.
bool on_a_line(const Point& p, const std::set<std::string>& ran,
               const std::vector<const Dimension*>& dims) {
  for (const Dimension* d : dims)
    for (const std::string& v : d->values)
      if (v != p.at(d->option) && ran.count(point_key(with(p, d->option, v)))) return true;
  return false;
}

// The pairs held by points that ran on a measured line (a row measured alone judges only its
// point rules), and what the space has.
void count_pairs(const SearchSpace& space, const std::vector<Rule>& rules,
                 const MeasuredPoints& measured, const PairCover& plain, SearchResult& r) {
  std::set<std::string> ran;
  for (const auto& [key, point] : measured.all())
    if (point.second.ok()) ran.insert(key);
  const std::vector<const Dimension*> dims = judged_dimensions(space, rules);
  std::vector<Point> on_lines;
  for (const auto& [key, point] : measured.all())
    if (ran.count(key) && on_a_line(point.first, ran, dims)) on_lines.push_back(point.first);
  r.pairs = pair_count(space);
  r.pairs_refused = plain.refused;
  r.pairs_covered = pairs_held(space, on_lines);
}

// What the windows of the points a rate rule judges could resolve (window_resolution.h).
WindowTally tally_windows(const std::vector<Rule>& rules, const MeasuredPoints& measured) {
  WindowTally tally{measured.min_effect()};
  for (const auto& entry : measured.all()) {
    const auto& [point, observation] = entry.second;
    const bool rated = std::any_of(rules.begin(), rules.end(), [&p = point](const Rule& rule) {
      return counted_rate(rule.counter) && rule_applies(rule, p);
    });
    if (rated) tally_window(tally, point, observation);
  }
  return tally;
}

// The candidate's confirmation: measured again now, or as an earlier round measured it.
void confirm_once(const SearchSpace& space, MeasuredPoints& measured,
                  std::map<std::string, SearchFinding>& confirmed, SearchFinding& f) {
  const std::string key = f.shown.key();
  if (const auto it = confirmed.find(key); it != confirmed.end()) {
    f.measured_again = true;
    f.confirmed = it->second.confirmed;
    f.again_low = it->second.again_low;
    f.again_high = it->second.again_high;
    return;
  }
  confirm(space, measured, f);
  if (f.measured_again) confirmed[key] = f;
}

}  // namespace

// Each round searches until only `kept` is left, then shrinks what it found and measures each
// candidate again. A later round repeats the earlier ones' steps from the points they measured
// (no cost) and goes on; it keeps back twice what the last shrinking and confirming took (at
// most half of what is left), and is run only when ten points' time is left.
SearchResult run_search(const SearchSpace& space, const std::vector<Rule>& rules,
                        MeasuredPoints& measured, SearchMethod method, uint32_t seed) {
  const double budget = measured.budget();
  const size_t point_limit = measured.point_limit();  // searching's alone
  double kept = budget * (1 - kSearchShare);
  SearchResult r;
  // (the target is asked about the cover's rows only where there is budget to measure them)
  const auto accepts = [&](const Point& p) { return measured.accepts(p); };
  const bool covering = method == SearchMethod::kGuided && measured.within_budget();
  const PairCover plain = covering ? pair_cover(space, accepts) : PairCover{};
  const std::vector<Point> rows =
      covering ? cover_rows(space, rules, accepts) : std::vector<Point>{};
  r.cover_rows = rows.size();
  // Each round's candidates are measured again at once (a later round shrinks the earlier
  // ones' violations again at no cost, and takes their confirmation from here).
  std::map<std::string, SearchFinding> confirmed;  // by the candidate's rule and points
  std::vector<SearchFinding> candidates;
  for (int round = 0; round < kRounds; ++round) {
    measured.set_budget(budget - kept);
    measured.set_point_limit(point_limit);
    r.violations = search_with(method, space, rules, measured, seed, rows);
    r.search_measurements = measured.measurements();
    measured.set_budget(budget);
    measured.set_point_limit(0);
    const double before = measured.spent();
    candidates = shrink_all(space, measured, r.violations);
    for (SearchFinding& f : candidates) confirm_once(space, measured, confirmed, f);
    // The searching reached its point limit: a later round could not walk again the steps
    // that found these (a walk asks for room first), and would end with none of them.
    if (point_limit != 0 && measured.all().size() >= point_limit) break;
    const double per_point = measured.spent() / static_cast<double>(measured.measurements() + 1);
    // (never more than half of what is left: a round that had many candidates to confirm
    // would otherwise leave the rest unspent; the next one's are new, the old ones confirmed)
    const double left = budget - measured.spent();
    if (left < 10 * per_point) break;
    kept = std::min(2 * (measured.spent() - before) + per_point, left / 2);
  }
  for (SearchFinding& f : candidates)
    (f.confirmed ? r.findings : r.unconfirmed).push_back(std::move(f));
  count_pairs(space, rules, measured, plain, r);
  r.windows = tally_windows(rules, measured);
  return r;
}

}  // namespace rdmabench
