#include "search/search_run.h"

#include "search/confirmation.h"
#include "search/space_search.h"

namespace rdmabench {

namespace {

// Rounds of searching then shrinking: what shrinking left of its share goes back to searching.
constexpr int kRounds = 3;

std::vector<Violation> search_with(SearchMethod method, const SearchSpace& space,
                                   const std::vector<Rule>& rules, MeasuredPoints& measured,
                                   uint32_t seed) {
  return method == SearchMethod::kGuided ? guided_search(space, rules, measured, seed)
                                         : random_search(space, rules, measured, seed);
}

}  // namespace

// Each round searches until only `kept` is left, then shrinks what it found. A later round
// repeats the earlier ones' steps from the points they measured (no cost) and goes on; it
// keeps back twice what the last shrinking took and a fresh measurement of each candidate's
// points (its confirmation), and is run only when that leaves room for a few points more.
SearchResult run_search(const SearchSpace& space, const std::vector<Rule>& rules,
                        MeasuredPoints& measured, SearchMethod method, uint32_t seed) {
  const double budget = measured.budget();
  double kept = budget * (1 - kSearchShare);
  SearchResult r;
  for (int round = 0; round < kRounds; ++round) {
    measured.set_budget(budget - kept);
    r.violations = search_with(method, space, rules, measured, seed);
    r.search_measurements = measured.measurements();
    measured.set_budget(budget);
    const double before = measured.spent();
    r.findings = shrink_all(space, measured, r.violations);
    const double per_point = measured.spent() / static_cast<double>(measured.measurements() + 1);
    size_t again = 0;
    for (const SearchFinding& f : r.findings) again += points_judged(space, f.shown);
    // (interleaved, each repetition of a point is set up anew: up to twice a point's cost)
    kept = 2 * (measured.spent() - before) + per_point * (2 * static_cast<double>(again) + 1);
    if (budget - measured.spent() - kept < 5 * per_point) break;
  }
  std::vector<SearchFinding> candidates = std::move(r.findings);
  r.findings.clear();
  for (SearchFinding& f : candidates) {
    confirm(space, measured, f);
    (f.confirmed ? r.findings : r.unconfirmed).push_back(std::move(f));
  }
  return r;
}

}  // namespace rdmabench
