// How finely a timed window's count knows a rate. Messages complete up to as many at once as
// the point keeps in flight (its send queues: --tx-depth on each of its --qps, both ways with
// --bidir); rxe, after a resend, completes a whole queue together. A window that counted n
// messages therefore knows its rate to within that many in n: one burst more or fewer would
// have fallen in it. A window that counted fewer than one burst knows no rate at all. A rule
// judges a rate counted in the window with that resolution beside its repetitions' spread
// (violation_judge.cpp), so two points a short window tells apart by a burst or two are not an
// anomaly.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "search/observation.h"
#include "search/search_space.h"

namespace rdmabench {

// The most messages the point keeps in flight: --tx-depth x --qps (x 2 with --bidir); an
// option the point does not hold counts 1.
uint64_t most_in_flight(const Point& point);

// Whether the counter is a rate counted over the window ("bytes_per_second").
bool counted_rate(std::string_view counter);

// The worst relative resolution over the repetitions: in_flight / msgs (infinity where a
// window counted fewer than in_flight messages; nullopt where no repetition counted its msgs).
std::optional<double> window_resolution(const Observation& observation, uint64_t in_flight);

// Over the points a rate rule judges, how many counted their window's messages, how many of
// those resolve the rate less finely than the smallest effect asked for (a longer --duration
// would), and how many counted less than one burst (no rate).
struct WindowTally {
  double min_effect = 0;  // what "coarse" is judged against
  size_t counted = 0, coarse = 0, no_rate = 0;
};
void tally_window(WindowTally& tally, const Point& point, const Observation& observation);

}  // namespace rdmabench
