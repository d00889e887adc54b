#include "search/search_run.h"

#include "search/space_search.h"

namespace rdmabench {

SearchResult run_search(const SearchSpace& space, const std::vector<Rule>& rules,
                        MeasuredPoints& measured, SearchMethod method, uint32_t seed) {
  const double budget = measured.budget();
  measured.set_budget(budget * kSearchShare);
  SearchResult r;
  r.violations = method == SearchMethod::kGuided ? guided_search(space, rules, measured, seed)
                                                 : random_search(space, rules, measured, seed);
  r.search_measurements = measured.measurements();
  measured.set_budget(budget);
  r.findings = shrink_all(space, measured, r.violations);
  for (SearchFinding& f : r.findings)
    if (measured.within_budget()) replay(measured, f);
  return r;
}

}  // namespace rdmabench
