// The space `rdmabench search` explores: every registered pattern and transport, both modes,
// every registered completion strategy that takes no arguments, and each run option with a
// declared range (run_options.h, searched_ranges).
#pragma once

#include "search/search_space.h"

namespace rdmabench {

SearchSpace search_dimensions();

}  // namespace rdmabench
