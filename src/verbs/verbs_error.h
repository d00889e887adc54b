// Errors raised by verbs and rdma_cm calls: a SystemError that names the failed call.
#pragma once

#include <cerrno>
#include <string>

#include "core/system_error.h"

namespace rdmabench {

// A failed ibv_*/rdma_* call: carries the call's name (e.g. "ibv_modify_qp") and the errno
// text. By default it means the device or its resources could not be set up.
class VerbsError : public SystemError {
 public:
  VerbsError(const std::string& verb, int err, const std::string& detail = {},
             ExitCode code = ExitCode::kNoDevice)
      : SystemError(verb, err, detail, code) {}
  const std::string& verb() const noexcept { return call(); }
};

// A post the QP refused (queue full, QP in error), thrown out of line: the hot path's posts
// then keep no stack frame for building the error.
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_refused_post(const char* verb, int rc) {
  throw VerbsError(verb, rc, {}, ExitCode::kRuntime);
}

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
  if (ptr == nullptr) throw VerbsError(verb, errno, detail);  // 0: said as setting none
  return ptr;
}

}  // namespace rdmabench
