// One rank's part of `rdmabench mesh`: serve in the background, meet the other ranks, measure
// the pairs the schedule gives this rank round by round, keeping its own, and reduce the
// report over the ranks, which rank 0 prints and writes. Every rank returns the same exit code.
#pragma once

#include "mesh/mesh_request.h"
#include "mesh/mpi_world.h"

namespace rdmabench {

int run_mesh_job(const MpiWorld& world, const MeshRequest& job);

}  // namespace rdmabench
