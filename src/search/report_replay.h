// A report's findings measured again somewhere else (the deterministic guest, another host
// pair): each finding's points measured afresh and judged by its rule again, what came out
// recorded under the finding's "replays" with a label ("deterministic").
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "search/search_space.h"
#include "search/search_target.h"
#include "spec/run_length.h"

namespace rdmabench {

// Throws Error(kInvalidFile) unless `report` is a search report (its schema, its findings),
// before any other part of it is read.
void check_search_report(const nlohmann::json& report);
// The space a report or state file names. Throws Error(kInvalidFile) saying what is wrong.
SearchSpace space_from_json(const nlohmann::json& dimensions);
// How the report's search ran each point (its settings: a timed window, or --iters), and how
// many repetitions: a replay measures alike unless told otherwise. Throws Error(kInvalidFile)
// for settings out of range.
RunLength report_run_length(const nlohmann::json& report);
unsigned report_repetitions(const nlohmann::json& report);
// `report` with each finding's replay added. Throws Error(kInvalidFile) for a report it cannot
// read (not a search report, an unknown rule, a point outside its space).
nlohmann::json replay_report(nlohmann::json report, SearchTarget& target, unsigned repetitions,
                             const std::string& label);

}  // namespace rdmabench
