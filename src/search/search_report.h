// What a search reports: every finding (its rule, the fewest options that show it, the two
// points and their bands, the wire counters that moved between them, whether a fresh
// measurement showed it again) as JSON (schema docs/search.schema.json) and as text.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/version.h"
#include "search/measured_points.h"
#include "search/point_length.h"
#include "search/search_run.h"
#include "search/search_space.h"

namespace rdmabench {

struct SearchReportContext {
  std::string command_head;  // "rdmabench run HOST --port 18515 --cm oob"
  nlohmann::json settings;   // budget, repetitions, method, seed, host, ...
  double spent_s = 0;
  size_t measurements = 0;
  std::optional<RunLength> length =
      std::nullopt;  // each point's run (point_length.h); none: not given
};

// `command_head`, the point's run length and its options: the command that measures it.
std::string point_command(const SearchSpace& space, const SearchReportContext& context,
                          const Point& point);
// Each finding carries its line: every point measured along the rule's dimension through its
// first point, with the figure's band (what tools/plot draws).
nlohmann::json search_report_json(const SearchSpace& space, const SearchResult& result,
                                  const SearchReportContext& context,
                                  const MeasuredPoints& measured);
void print_search_report(std::ostream& out, const SearchSpace& space, const SearchResult& result,
                         const SearchReportContext& context);

}  // namespace rdmabench
