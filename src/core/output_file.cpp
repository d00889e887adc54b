#include "core/output_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "core/printable_text.h"
#include "core/system_error.h"

namespace rdmabench {

void check_writable(const std::string& path, const std::string& option) {
  std::error_code ignored;
  const bool existed = std::filesystem::exists(path, ignored);
  const bool writable = static_cast<bool>(std::ofstream(path, std::ios::app));
  if (!existed) std::filesystem::remove(path, ignored);
  if (!writable)
    throw Error(ExitCode::kUsage, option + " " + printable(path) + ": cannot write there");
}

void write_file_atomically(const std::string& path, std::string_view text,
                           const std::string& option) {
  const std::string tmp = path + ".tmp";
  const std::string named = option + " " + printable(tmp);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw SystemError("open", errno, named, ExitCode::kRuntime);
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      ::close(fd);
      ::unlink(tmp.c_str());
      throw SystemError("write", err, named, ExitCode::kRuntime);
    }
    done += static_cast<size_t>(n);
  }
  const int synced = ::fsync(fd) == 0 ? 0 : errno;
  if (::close(fd) != 0 || synced != 0) {
    const int err = synced != 0 ? synced : errno;
    ::unlink(tmp.c_str());
    throw SystemError("fsync/close", err, named, ExitCode::kRuntime);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw SystemError("rename", err, named + " -> " + printable(path), ExitCode::kRuntime);
  }
}

}  // namespace rdmabench
