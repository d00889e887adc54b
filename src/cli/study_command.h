#pragma once

#include <string>
#include <vector>

#include "spec/cq_choice.h"

namespace rdmabench {

int run_study_command(int argc, char** argv);

// What `rdmabench study polling` runs unless told otherwise: its CQ choices and its patterns
// (by name), as `rdmabench version --json` reports them to the tools (the demo's study in the
// deterministic guest keeps those that guest can measure).
std::vector<CqChoice> polling_study_cq_choices();
std::vector<std::string> polling_study_patterns();

}  // namespace rdmabench
