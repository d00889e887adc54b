// Version numbers: the program, its JSON schemas, and the client/server control protocol.
#pragma once

#include <string_view>

namespace rdmabench {

inline constexpr const char* kVersion = "0.1.0";
inline constexpr int kDevicesSchemaVersion = 1;
// context.rdmabench_schema of `run --out` and `--json`, described by docs/results.schema.json.
// 2: each row carries its spec (rdmabench_spec), the counter catalogue; 3: the spec has
// transport; 4: the context has rdmabench's revision and build type, each side's firmware,
// link speed and width, and the parameters --ib-port, --min-bw and --max-lat.
inline constexpr int kResultsSchemaVersion = 5;
// docs/doctor.schema.json: rdmabench doctor --json.
inline constexpr int kDoctorSchemaVersion = 1;

// True when a schema's name ends in "/VERSION" ("rdmabench-mesh/1" and 1).
constexpr bool names_version(std::string_view name, int version) {
  const auto slash = name.rfind('/');
  if (slash == std::string_view::npos || slash + 1 == name.size()) return false;
  int number = 0;
  for (char c : name.substr(slash + 1)) {
    if (c < '0' || c > '9') return false;
    number = number * 10 + (c - '0');
  }
  return number == version;
}

// docs/mesh.schema.json: rdmabench mesh --out (context.schema).
inline constexpr int kMeshSchemaVersion = 1;
inline constexpr const char* kMeshSchema = "rdmabench-mesh/1";
static_assert(names_version(kMeshSchema, kMeshSchemaVersion));
// docs/search.schema.json: rdmabench search --out.
inline constexpr int kSearchSchemaVersion = 1;
inline constexpr const char* kSearchReportSchema = "rdmabench-search/1";
static_assert(names_version(kSearchReportSchema, kSearchSchemaVersion));
// rdmabench search --state: the file a search resumes from (read by rdmabench alone).
inline constexpr const char* kSearchStateSchema = "rdmabench-search-state/1";

}  // namespace rdmabench
