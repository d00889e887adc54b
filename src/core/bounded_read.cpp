#include "core/bounded_read.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace rdmabench {

std::optional<std::string> read_up_to(int fd, std::size_t limit) {
  // The limit bounds what is read, never what is allocated: the buffer grows as bytes come (by
  // doubling from 64 KiB), so a small file under a large bound costs what it holds.
  std::string bytes;
  std::size_t got = 0;
  while (got < limit) {
    if (got == bytes.size())
      bytes.resize(std::min(limit, std::max<std::size_t>(got * 2, std::size_t{1} << 16)));
    const ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  bytes.resize(got);
  return bytes;
}

std::optional<std::string> read_file_up_to(const std::string& path, std::size_t limit) {
  // O_NONBLOCK: a FIFO without a writer reads as empty instead of blocking the open.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  std::optional<std::string> bytes = read_up_to(fd, limit);
  const int read_errno = errno;
  ::close(fd);
  errno = read_errno;
  return bytes;
}

}  // namespace rdmabench
