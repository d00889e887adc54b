// Points that together hold every pair of values of the search's unordered options (pattern,
// mode, transport, CQ strategy, the flags): a covering array, so that an anomaly that needs two
// of them away from the base (events in lat mode, uc with --bidir) lies on some row's lines.
// A rule that judges only where an option has one value (bandwidth: mode=bw) sees only the
// rows with it, so the rows cover the pairs once for each such value (cover_rows).
// Built greedily: each row starts from a pair no row holds yet, at the base, and takes, option
// by option, the value that adds the most pairs and keeps the row one the target takes (the
// base's among equals, none that forms a pair the target refused), its ordered options moved
// where the target needs (an atomic to 8 bytes). A pair the target takes at no such start (read
// over ud) is left out and counted.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "search/expectation_rules.h"
#include "search/search_space.h"

namespace rdmabench {

struct PairCover {
  std::vector<Point> rows;  // each taken by the target
  size_t pairs = 0;         // pairs of values of two different unordered options
  size_t refused = 0;       // of them, held by no point the target takes
};

PairCover pair_cover(const SearchSpace& space, const std::function<bool(const Point&)>& accepts);
// The rows the search draws lines through: for each value a rule asks for (only_if), a cover of
// the space with that value fixed, in the rules' order; a plain cover where no rule asks.
std::vector<Point> cover_rows(const SearchSpace& space, const std::vector<Rule>& rules,
                              const std::function<bool(const Point&)>& accepts);
// How many pairs of values of two different unordered options the space has.
size_t pair_count(const SearchSpace& space);
// How many of them `points` hold between them.
size_t pairs_held(const SearchSpace& space, const std::vector<Point>& points);

}  // namespace rdmabench
