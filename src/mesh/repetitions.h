// mesh --repetitions K: every pair is measured K times (the whole schedule K times over, so
// that one transient stall hits one repetition, not all), and judged on its best run. The kept
// result is that run's, with what the others say beside it: how many ran, how many failed,
// the worst judged figure and the spread between best and worst (a fraction of the best).
#pragma once

#include <vector>

#include "mesh/pair_result.h"

namespace rdmabench {

// One result per (benchmark, pair), in the order each first appears: the best successful
// repetition by its judged figure (judged_figure(mode)), with counters repetitions_measured,
// repetitions_failed, judged_worst and judged_spread; a pair that failed every time keeps its
// last failure. With one repetition each, the results are returned as they are (moved, not
// copied: a 1024-rank mesh has two million).
std::vector<PairResult> best_of_repetitions(std::vector<PairResult> all);

}  // namespace rdmabench
