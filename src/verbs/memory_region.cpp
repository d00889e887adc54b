#include "verbs/memory_region.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace rdmabench {

MemoryRegion::MemoryRegion(const ProtectionDomain& pd, size_t length, int access)
    : length_(length) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t rounded = ((length == 0 ? 1 : length) + page - 1) / page * page;
  void* raw = std::aligned_alloc(page, rounded);
  if (raw == nullptr) throw VerbsError("aligned_alloc", ENOMEM, std::to_string(rounded) + " bytes");
  std::memset(raw, 0, rounded);
  data_.reset(static_cast<uint8_t*>(raw));
  mr_ = check_ptr(ibv_reg_mr(pd.native(), raw, rounded, access), "ibv_reg_mr",
                  std::to_string(rounded) + " bytes");
}

MemoryRegion::~MemoryRegion() {
  if (mr_ != nullptr) ibv_dereg_mr(mr_);
}

}  // namespace rdmabench
