// A report's findings measured again somewhere else (the deterministic guest, another host
// pair): each finding's points measured afresh and judged by its rule again, what came out
// recorded under the finding's "replays" with a label ("deterministic").
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "search/search_space.h"
#include "search/search_target.h"

namespace rdmabench {

// The space a report or state file names. Throws Error(kInvalidFile) saying what is wrong.
SearchSpace space_from_json(const nlohmann::json& dimensions);
// `report` with each finding's replay added. Throws Error(kInvalidFile) for a report it cannot
// read (not a search report, an unknown rule, a point outside its space).
nlohmann::json replay_report(nlohmann::json report, SearchTarget& target, unsigned repetitions,
                             const std::string& label);

}  // namespace rdmabench
