// Waiting for a file descriptor to become readable, within a deadline.
#pragma once

#include <chrono>

namespace rdmabench {

// Waits until `fd` is readable, for at most `timeout`. A signal that interrupts the wait
// (EINTR) does not end it: it goes on, for at most `timeout` more (the common path reads no
// clock). Returns false on timeout; throws SystemError(`what`, errno, kRuntime) when poll fails.
// With `interrupt_fd` >= 0, also returns false as soon as that descriptor is readable.
bool wait_readable(int fd, std::chrono::milliseconds timeout, const char* what,
                   int interrupt_fd = -1);

}  // namespace rdmabench
