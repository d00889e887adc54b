// Waiting for a file descriptor to become readable, within a deadline.
#pragma once

#include <chrono>
#include <initializer_list>
#include <optional>

namespace rdmabench {

// What is left until `deadline`, as poll's timeout: whole milliseconds, rounded up (a wait never
// wakes just before its deadline to wait again), 0 once it has passed.
int poll_timeout_ms(std::chrono::steady_clock::time_point deadline);
// The same, or -1 (no timeout: the wait ends on an event alone) without a deadline.
int poll_timeout_ms(std::optional<std::chrono::steady_clock::time_point> deadline);

// Waits until `fd` is readable, for at most `timeout`. A signal that interrupts the wait
// (EINTR) does not end it: it goes on, for at most `timeout` more (the common path reads no
// clock). Returns false on timeout; throws SystemError(`what`, errno, kRuntime) when poll fails.
// With `interrupt_fd` >= 0, also returns false as soon as that descriptor is readable.
bool wait_readable(int fd, std::chrono::milliseconds timeout, const char* what,
                   int interrupt_fd = -1);

// Waits until one of `fds` is readable (or hung up, or in error), for at most `timeout`:
// returns the first such in the order given (put the one that matters most first), or -1 at
// the timeout. Negative descriptors are skipped. EINTR goes on waiting, within `timeout`;
// throws SystemError(`what`, errno, kRuntime) when poll fails.
int first_readable(std::initializer_list<int> fds, std::chrono::milliseconds timeout,
                   const char* what);

}  // namespace rdmabench
