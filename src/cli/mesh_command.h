// `rdmabench mesh`: an all-pairs fabric check, one rank per host, launched by mpirun or srun.
#pragma once

namespace rdmabench {

int run_mesh_command(int argc, char** argv);

}  // namespace rdmabench
