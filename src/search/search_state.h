// The search's state file: every point measured so far (its repetitions' counters, or why it
// failed), the seconds spent, and what the search was asked (the space, the repetitions), so
// that a search stopped by its budget, a signal or a failure resumes where it was: the same
// search over the same space replays the measured points from the file and goes on.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/version.h"
#include "search/measured_points.h"
#include "search/search_space.h"

namespace rdmabench {

// The file's JSON: `settings` says what the search was asked (a resumed one must match).
nlohmann::json search_state_json(const SearchSpace& space, const MeasuredPoints& measured,
                                 const nlohmann::json& settings);
// Loads `state` into `measured`. Throws Error(kInvalidFile) naming what is wrong: not a state
// file, another space, other settings, a point outside the space.
void restore_search_state(const nlohmann::json& state, const SearchSpace& space,
                          const nlohmann::json& settings, MeasuredPoints& measured);

nlohmann::json dimension_json(const Dimension& d);

}  // namespace rdmabench
