// Reading a file no further than a bound: whatever a file named on the command line, a sysfs
// attribute or a /proc entry turns out to be (a log that grows, /dev/zero, a FIFO), a reader
// takes at most what it asked for.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace rdmabench {

// Reads `fd` from where it stands until its end or `limit` bytes (a signal's EINTR read again);
// nullopt when a read fails. Ask for one byte more than the most you take to tell a longer file.
std::optional<std::string> read_up_to(int fd, std::size_t limit);

// Opens `path` read-only and reads it as read_up_to does; nullopt when it cannot be opened (errno
// then says why) or read.
std::optional<std::string> read_file_up_to(const std::string& path, std::size_t limit);

}  // namespace rdmabench
