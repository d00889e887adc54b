#include "core/nonblocking.h"

#include <fcntl.h>

#include <string>

#include "core/system_error.h"

namespace rdmabench {

void set_nonblocking(int fd, const char* what) {
  const int flags = fcntl(fd, F_GETFL);
  if (flags < 0)
    throw SystemError(std::string("fcntl(F_GETFL) on ") + what, errno, {}, ExitCode::kRuntime);
  if (fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
    throw SystemError(std::string("fcntl(F_SETFL, O_NONBLOCK) on ") + what, errno, {},
                      ExitCode::kRuntime);
}

}  // namespace rdmabench
