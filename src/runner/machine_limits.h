// --limits-file: the --min-bw and --max-lat limits of a health check kept per machine type, as
// fleet health checks keep them (one threshold per VM size or server model), in one JSON file:
//
//   {"machine_types": {"Standard_ND96asr_v4": {"min_bw": 180, "max_lat": "p99:5"},
//                      "PowerEdge XE9680": {"min_bw": "350"}},
//    "default": {"min_bw": 20}}
//
// A host takes the entry of its machine type (host/machine_type.h), else "default"; min_bw as
// --min-bw takes it (Gb/s), max_lat as --max-lat (STATISTIC:US). Any other key is refused, so
// that a misspelt limit is not silently no limit.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/bounded_json.h"
#include "runner/pass_limits.h"

namespace rdmabench {

struct MachineLimits {
  PassLimits limits;
  std::string max_lat_text;  // max_lat as the file gives it ("p99:5"), "" when none
  std::string entry;         // the machine type whose entry was taken, or "default"
};

// The limits for `machine_type` in `file` (already parsed); Error(kUsage) naming `what` and
// what is wrong, every value from the file printed escaped.
MachineLimits machine_limits(const nlohmann::json& file, const std::string& machine_type,
                             const std::string& what);
// A limits file is read within these bounds before it is parsed.
inline constexpr JsonBounds kLimitsFileBounds{1u << 20, 8};

// The same from the file at `path`, read within kLimitsFileBounds.
MachineLimits read_machine_limits(const std::string& path, const std::string& machine_type);

}  // namespace rdmabench
