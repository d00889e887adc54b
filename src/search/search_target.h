// What the search measures: a running `rdmabench serve` (cli/serve_search_target.h) or, in the
// tests, a simulated one with planted anomalies. Each point is measured `repetitions` times.
#pragma once

#include "search/observation.h"
#include "search/search_space.h"

namespace rdmabench {

class SearchTarget {
 public:
  virtual ~SearchTarget() = default;
  virtual Observation measure(const Point& point, unsigned repetitions) = 0;
  // Whether the target takes the point at all (checked where it costs nothing: `run`'s own
  // checks of its options): the search moves a refused starting point to one it takes.
  virtual bool accepts(const Point& /*point*/) const { return true; }
  // Seconds spent measuring so far: what the budget is counted in.
  virtual double seconds_spent() const = 0;
};

}  // namespace rdmabench
