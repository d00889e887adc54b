#include "host/memory_policy.h"

#include <linux/mempolicy.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rdmabench {

std::string prefer_memory_node(int node) {
  constexpr int kMaskBits = 8 * sizeof(unsigned long);
  long rc = 0;
  if (node < 0) {
    rc = syscall(SYS_set_mempolicy, MPOL_DEFAULT, nullptr, 0);
  } else if (node >= kMaskBits) {
    return "set_mempolicy: node " + std::to_string(node) + " is beyond a one-word node mask";
  } else {
    const unsigned long mask = 1ul << node;
    rc = syscall(SYS_set_mempolicy, MPOL_PREFERRED, &mask, kMaskBits);
  }
  if (rc != 0) return std::string("set_mempolicy: ") + std::strerror(errno);
  return "";
}

}  // namespace rdmabench
