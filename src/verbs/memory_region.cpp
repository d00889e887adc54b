#include "verbs/memory_region.h"

#include <sys/resource.h>

#include <cerrno>
#include <string>

#include "verbs/verbs_error.h"

namespace rdmabench {

namespace {
// What an ibv_reg_mr that failed with ENOMEM says beside its size: the memlock limit it may
// have met (siw counts registrations against it even for root; rxe, for a process without
// CAP_IPC_LOCK), and how to raise it.
std::string registration_detail(size_t length, int error) {
  std::string detail = std::to_string(length) + " bytes";
  rlimit limit{};
  if (error != ENOMEM || getrlimit(RLIMIT_MEMLOCK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
    return detail;
  return detail + "; the memlock limit is " + std::to_string(limit.rlim_cur >> 10) +
         " KiB and registered memory may count against it: raise it (`ulimit -l unlimited`, "
         "memlock in /etc/security/limits.d/, LimitMEMLOCK= for a service; rdmabench doctor "
         "checks it)";
}
}  // namespace

MemoryRegion::MemoryRegion(const ProtectionDomain& pd, size_t length, int access, Pages pages)
    : buffer_(length, pages), length_(length) {
  mr_ = ibv_reg_mr(pd.native(), buffer_.data(), buffer_.length(), access);
  if (mr_ == nullptr) {
    const int error = errno != 0 ? errno : ENOMEM;
    throw VerbsError("ibv_reg_mr", error, registration_detail(buffer_.length(), error));
  }
}

MemoryRegion::~MemoryRegion() {
  if (mr_ != nullptr) ibv_dereg_mr(mr_);
}

}  // namespace rdmabench
