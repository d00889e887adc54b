// What one side of a default `rdmabench run` registers, for the doctor's memlock check (the
// host layer gathers the facts; only the layer that knows the patterns and the streams' sizing
// can say this).
#pragma once

#include <cstdint>

namespace rdmabench {

// The most one side of a default `rdmabench run` registers: every registered pattern, bw
// and lat, at each default size it accepts, one QP.
uint64_t default_run_registered_bytes();

}  // namespace rdmabench
