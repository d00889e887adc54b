// The space `rdmabench search` explores: every registered pattern and transport, both modes,
// every registered completion strategy that takes no arguments, and each run option with a
// declared range (run_options.h, searched_ranges).
#pragma once

#include <string>

#include "cli/run_options.h"
#include "search/search_space.h"

namespace rdmabench {

SearchSpace search_dimensions();

// `space` without the dimensions `method` does not set (over rdma_cm, those only the
// out-of-band bootstrap sets: SearchedRange::oob_only); `left_out` gets their options.
SearchSpace honoured_space(const SearchSpace& space, Bootstrap method,
                           std::vector<std::string>& left_out);

// A space read from a file (a report to replay) holds only options search explores, each with
// values their ranges declare: each reaches a point's request through its setter. Throws
// Error(kInvalidFile) naming, printably, the first that does not.
void check_searched(const SearchSpace& space, const std::string& file_kind);

// How each dimension's value is set on a point's request (point_request.h); throws
// Error(kInternal) for an option that is not a dimension.
PointSetter point_setter(const std::string& option);

}  // namespace rdmabench
