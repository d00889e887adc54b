#include <algorithm>

#include "search/confirmation.h"
#include "search/finding.h"

namespace rdmabench {

namespace {

// Where the violation's two points lie along its dimension (a point rule: nowhere, 0..0).
std::pair<size_t, size_t> span(const SearchSpace& space, const Violation& v) {
  const std::string along(v.rule->along);
  if (along.empty()) return {0, 0};
  return {*space.index_of(along, v.low.at(along)), *space.index_of(along, v.high.at(along))};
}

// `v` is an instance of `f`: the same rule, between values of its dimension that hold the
// finding's two (a coarse line's pair holds the step it skipped over), at points that hold
// every option the finding needs.
bool explains(const SearchSpace& space, const SearchFinding& f, const Violation& v) {
  if (f.shown.rule != v.rule) return false;
  const auto [f_low, f_high] = span(space, f.shown);
  const auto [v_low, v_high] = span(space, v);
  if (f_low < v_low || f_high > v_high) return false;
  const auto held = non_base(space, v.low);
  return std::all_of(f.options.begin(), f.options.end(), [&](const auto& option) {
    const auto it = held.find(option.first);
    return it != held.end() && it->second == option.second;
  });
}

}  // namespace

std::vector<SearchFinding> shrink_all(const SearchSpace& space, MeasuredPoints& measured,
                                      std::vector<Violation> violations) {
  // The narrowest first (a coarse pair is then an instance of the step found inside it), the
  // largest first among equals.
  const auto width = [&](const Violation& v) {
    return span(space, v).second - span(space, v).first;
  };
  std::stable_sort(violations.begin(), violations.end(),
                   [&](const Violation& a, const Violation& b) {
                     return width(a) != width(b) ? width(a) < width(b) : a.size > b.size;
                   });
  // Each candidate's confirmation is kept back from shrinking the next: a candidate the
  // budget cannot measure again is no finding.
  const double budget = measured.budget();
  const double per_point = measured.spent() / static_cast<double>(measured.measurements() + 1);
  size_t to_confirm = 0;
  std::vector<SearchFinding> findings;
  for (const Violation& v : violations) {
    const bool known = std::any_of(findings.begin(), findings.end(),
                                   [&](const SearchFinding& f) { return explains(space, f, v); });
    if (known) continue;
    // (interleaved, each repetition of a point is set up anew: up to twice a point's cost)
    const size_t with_this = to_confirm + points_judged(space, v);
    // (beyond it, shrinking judges only points measured before: a later round finds again,
    // at no cost, what an earlier one shrank)
    measured.set_budget(budget - 2 * per_point * static_cast<double>(with_this));
    SearchFinding f = shrink(space, measured, v);
    const bool same = std::any_of(findings.begin(), findings.end(), [&](const SearchFinding& g) {
      return g.shown.key() == f.shown.key();
    });
    if (same) continue;
    to_confirm += points_judged(space, f.shown);
    findings.push_back(std::move(f));
  }
  measured.set_budget(budget);
  // One shrunk before a narrower instance of it could be (the budget ended) is that instance.
  std::vector<SearchFinding> kept;
  for (const SearchFinding& f : findings) {
    const bool instance =
        std::any_of(findings.begin(), findings.end(), [&](const SearchFinding& g) {
          return g.options.size() < f.options.size() && explains(space, g, f.shown);
        });
    if (!instance) kept.push_back(f);
  }
  return kept;
}

}  // namespace rdmabench
