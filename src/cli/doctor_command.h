// `rdmabench doctor`: a pre-flight check of this host before trusting a figure.
#pragma once

#include <cstdint>

namespace rdmabench {

int run_doctor_command(int argc, char** argv);

// The most one side of a default `rdmabench run` registers: every registered pattern, bw
// and lat, at each default size it accepts, one QP.
uint64_t default_run_registered_bytes();

}  // namespace rdmabench
