// Making a descriptor non-blocking (or blocking again), both fcntl calls checked.
#pragma once

namespace rdmabench {

// Sets O_NONBLOCK on `fd` (clears it with `on` false), keeping its other flags. Throws
// SystemError naming `what` and the fcntl call that failed (kRuntime).
void set_nonblocking(int fd, const char* what, bool on = true);

}  // namespace rdmabench
