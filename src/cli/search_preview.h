// `rdmabench search --dry-run`: what the search would do, said before anything opens a device
// or connects: the space, each point's length, where it stops, the files it keeps, and an
// estimate of how many points its budget holds.
#pragma once

#include <string>

#include "cli/search_request.h"
#include "search/search_space.h"

namespace rdmabench {

std::string search_preview(const SearchSpace& space, const SearchRequest& request);

}  // namespace rdmabench
