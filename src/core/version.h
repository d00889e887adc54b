// Version numbers: the program, its JSON schemas, and the client/server control protocol.
#pragma once

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

}  // namespace rdmabench
