// Version numbers: the program, its JSON schemas, and the client/server control protocol.
#pragma once

namespace rdmabench {

inline constexpr const char* kVersion = "0.1.0";
inline constexpr int kDevicesSchemaVersion = 1;
inline constexpr int kResultsSchemaVersion = 3;  // context.rdmabench_schema of `run --out`
// 2: each row carries its spec (rdmabench_spec), the counter catalogue; 3: the spec has transport

}  // namespace rdmabench
