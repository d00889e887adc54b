// The wall-clock time as people read it in a log or a report's context.
#pragma once

#include <string>

namespace rdmabench {

// Now, as an ISO 8601 UTC time: 2026-11-22T03:10:02Z.
std::string utc_now_iso8601();

}  // namespace rdmabench
