// The calling thread's memory placement (set_mempolicy(2)): what it and the threads it starts
// allocate from now on comes from `node` when the node has free memory (MPOL_PREFERRED), or
// from wherever the kernel chooses (node -1, MPOL_DEFAULT). No libnuma: one system call.
#pragma once

#include <string>

namespace rdmabench {

// "" when set, else why not ("set_mempolicy: Operation not permitted"), for the context's
// reason; a refusal never stops a run, it only leaves memory where the kernel puts it.
std::string prefer_memory_node(int node);

}  // namespace rdmabench
