// Making a descriptor non-blocking, both fcntl calls checked.
#pragma once

namespace rdmabench {

// Sets O_NONBLOCK on `fd`, keeping its other flags. Throws SystemError naming `what` and the
// fcntl call that failed (kRuntime).
void set_nonblocking(int fd, const char* what);

}  // namespace rdmabench
