// A starting point the target refuses (an atomic at 64 KiB, a write over ud) is moved to the
// nearest one it takes, keeping the option that made it: one other option changed, or two,
// the fewest steps away (an ordered option's steps along its values, an unordered one's one).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "search/search_space.h"

namespace rdmabench {

// `point` itself when accepted, or when no point one or two changes away is.
Point accepted_near(const SearchSpace& space, const Point& point, const std::string& kept,
                    const std::function<bool(const Point&)>& accepts);
// A covering row (pair_cover.h): every unordered option kept, one ordered option moved, the
// fewest steps away; nullopt when none is taken.
std::optional<Point> accepted_keeping_categories(const SearchSpace& space, const Point& point,
                                                 const std::function<bool(const Point&)>& accepts);

}  // namespace rdmabench
