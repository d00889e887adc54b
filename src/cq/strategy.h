// Finding a registered completion-queue strategy by name: parsing --cq, the list of them
// (strategy_list.cpp, from cq/strategy_registry.h) and a parsed strategy's description. The values
// themselves are spec/cq_choice.h.
#pragma once

#include <string>
#include <vector>

#include "spec/cq_choice.h"

namespace rdmabench {

// One strategy: a registered name and its arguments. Throws Error(kUsage) saying what is
// wrong and listing the strategies.
CqStrategy parse_cq_strategy(const std::string& text);
// "busy", or "client=busy,server=hybrid:20" (either order). Throws Error(kUsage).
CqChoice parse_cq_choice(const std::string& text);
// --cq: one or more choices separated by ';' (or by ',' when no choice has arguments or
// sides: "busy,event"); "all" is busy and event.
std::vector<CqChoice> parse_cq_choices(const std::string& text);

// Every registered strategy, in registration order.
const std::vector<StrategyInfo>& registered_strategies();
const StrategyInfo& strategy_info(const CqStrategy& strategy);  // of a parsed strategy

}  // namespace rdmabench
