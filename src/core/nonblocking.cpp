#include "core/nonblocking.h"

#include <fcntl.h>

#include <string>

#include "core/system_error.h"

namespace rdmabench {

void set_nonblocking(int fd, const char* what, bool on) {
  const int flags = fcntl(fd, F_GETFL);
  if (flags < 0)
    throw SystemError(std::string("fcntl(F_GETFL) on ") + what, errno, {}, ExitCode::kRuntime);
  const int wanted = on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK;
  if (wanted != flags && fcntl(fd, F_SETFL, wanted) < 0)
    throw SystemError(std::string("fcntl(F_SETFL) on ") + what, errno, {}, ExitCode::kRuntime);
}

}  // namespace rdmabench
