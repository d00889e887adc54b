#include "verbs/memory_region.h"

#include <string>

namespace rdmabench {

MemoryRegion::MemoryRegion(const ProtectionDomain& pd, size_t length, int access, Pages pages)
    : buffer_(length, pages), length_(length) {
  mr_ = check_ptr(ibv_reg_mr(pd.native(), buffer_.data(), buffer_.length(), access), "ibv_reg_mr",
                  std::to_string(buffer_.length()) + " bytes");
}

MemoryRegion::~MemoryRegion() {
  if (mr_ != nullptr) ibv_dereg_mr(mr_);
}

}  // namespace rdmabench
