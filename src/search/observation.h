// What the search measured at one point: each repetition's counters (the row's counters of
// one `rdmabench run` of it), or why it could not run. Its noise is its own: the band its
// repetitions span.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rdmabench {

using Counters = std::map<std::string, double>;

// Where a counter's repetitions lie.
struct Band {
  double low = 0;
  double median = 0;
  double high = 0;
  double spread() const noexcept { return high - low; }
};

struct Observation {
  std::vector<Counters> runs;  // one per repetition
  std::string error;           // the run failed (refused, timed out): no counters
  int exit_code = 0;           // its exit code

  bool ok() const noexcept { return error.empty() && !runs.empty(); }
  // The counter's band over the repetitions that have it as a number (none has: nullopt).
  std::optional<Band> band(const std::string& counter) const;
};

}  // namespace rdmabench
