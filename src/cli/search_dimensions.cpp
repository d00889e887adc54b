#include "cli/search_dimensions.h"

#include "bench/pattern_catalogue.h"
#include "cli/run_options.h"
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
  Dimension d{r.option, {}, r.fallback, r.start, !r.flag, r.flag};
  if (r.flag) {
    d.values = {"off", "on"};
    return d;
  }
  for (uint64_t v = r.low; v <= r.high; v = r.every ? v + 1 : v * 2)
    d.values.push_back(r.size_units ? size_text(v) : std::to_string(v));
  return d;
}

Dimension registered(const std::string& option, std::vector<std::string> values,
                     const std::string& fallback, const std::string& start) {
  return {option, std::move(values), fallback, start, false};
}

}  // namespace

SearchSpace search_dimensions() {
  std::vector<std::string> patterns, transports, strategies;
  for (const Pattern& p : registered_patterns()) patterns.push_back(p.name());
  for (const Transport& t : registered_transports()) transports.push_back(t.name());
  for (const StrategyInfo& s : registered_strategies())
    if (s.arguments == 0) strategies.emplace_back(s.name);
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
