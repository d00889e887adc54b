// Errors raised by verbs, rdma_cm and system calls: an Error that names the failed call.
#pragma once

#include <cerrno>
#include <string>

#include "core/error.h"

namespace rdmabench {

// A failed call: carries the call's name (e.g. "ibv_modify_qp") and the errno text.
class VerbsError : public Error {
 public:
  VerbsError(const std::string& verb, int err, const std::string& detail = {},
             ExitCode code = ExitCode::kNoDevice);
  const std::string& verb() const noexcept { return verb_; }
  int error_number() const noexcept { return errno_; }

 private:
  std::string verb_;
  int errno_;
};

// ibv_* calls return an errno value; rdma_* and libc calls return -1 and set errno.
// Either way: throw VerbsError when rc is non-zero.
// `code` says what the failure means: setting a device up (the default), or a failure while
// running (kRuntime), ...
inline void check_call(int rc, const char* verb, const std::string& detail = {},
                       ExitCode code = ExitCode::kNoDevice) {
  if (rc == 0) return;
  throw VerbsError(verb, rc > 0 ? rc : errno, detail, code);
}

// For calls that return a pointer, NULL and errno on failure.
template <typename T>
T* check_ptr(T* ptr, const char* verb, const std::string& detail = {}) {
  if (ptr == nullptr) throw VerbsError(verb, errno != 0 ? errno : ENOMEM, detail);
  return ptr;
}

}  // namespace rdmabench
