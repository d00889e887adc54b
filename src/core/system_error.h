// A failed call into the system or a library: an Error that names the call and its errno text.
// Each layer that makes such calls has its own kind (VerbsError, SocketError); a plain
// SystemError is for the rest (eventfd, epoll, poll).
#pragma once

#include <cerrno>
#include <string>

#include "core/error.h"

namespace rdmabench {

class SystemError : public Error {
 public:
  // "<call> failed: <strerror> (errno N) [<detail>]"
  SystemError(const std::string& call, int err, const std::string& detail = {},
              ExitCode code = ExitCode::kInternal);
  const std::string& call() const noexcept { return call_; }
  int error_number() const noexcept { return errno_; }

 private:
  std::string call_;
  int errno_;
};

// For libc calls that return -1 and set errno: throw SystemError when rc is non-zero.
inline void check_system(int rc, const char* call, const std::string& detail = {},
                         ExitCode code = ExitCode::kInternal) {
  if (rc == 0) return;
  throw SystemError(call, rc > 0 ? rc : errno, detail, code);
}

}  // namespace rdmabench
