// `rdmabench mesh --dry-run --ranks N`: what the job would run on N ranks, said before MPI, a
// device or a server is touched: each mode's benchmark and length, the rounds of the schedule or
// traffic plan, and an estimate.
#pragma once

#include <string>

#include "mesh/mesh_request.h"

namespace rdmabench {

std::string mesh_preview(const MeshRequest& job, int ranks);

}  // namespace rdmabench
