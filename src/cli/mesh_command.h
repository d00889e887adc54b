// `rdmabench mesh`: an all-pairs fabric check, one rank per host, launched by mpirun or srun.
#pragma once

#include <optional>

#include "mesh/mesh_request.h"

namespace rdmabench {

int run_mesh_command(int argc, char** argv);

// mesh's options parsed and checked; nullopt after --help. Touches neither MPI nor a device
// (the argv fuzzer parses through it).
std::optional<MeshRequest> parse_mesh_request(int argc, char** argv);

}  // namespace rdmabench
