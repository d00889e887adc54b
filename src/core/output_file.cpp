#include "core/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "core/error.h"
#include "core/printable_text.h"
#include "core/system_error.h"

namespace rdmabench {

namespace {

bool is_folder(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

void check_writable(const std::string& path, const std::string& option) {
  const auto refuse = [&](const std::string& why) {
    return Error(ExitCode::kUsage, option + " " + printable(path) + ": cannot write there: " + why);
  };
  if (path.empty()) throw refuse("the file name is empty");
  if (is_folder(path))
    throw refuse("is a folder: name a file in it (for example " +
                 printable((std::filesystem::path(path) / "results.json").string()) + ")");
  const std::string parent = std::filesystem::path(path).parent_path().string();
  const std::string folder = parent.empty() ? "." : parent;
  struct stat st {};
  if (::stat(folder.c_str(), &st) != 0 && errno == ENOENT)
    throw refuse("its folder " + printable(folder) +
                 " does not exist (make it with mkdir -p, or name another)");
  if (!is_folder(folder)) throw refuse(printable(folder) + " is not a folder");
  // What the write will do (write_file_atomically): a new file beside PATH, renamed over it.
  // Nothing at PATH is opened, so a link there, dangling or not, is never followed.
  try {
    ::unlink(temporary_beside(path, option).c_str());
  } catch (const SystemError& e) {
    throw refuse("cannot make a file in " + printable(folder) + ": " +
                 std::strerror(e.error_number()));
  }
}

namespace {

// The descriptor of a new temporary beside `path`, its name in `name`.
int make_temporary(const std::string& path, std::string& name, const std::string& option) {
  name = path + ".XXXXXX";
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  const std::string named = option + " " + printable(path) + " (a temporary beside it)";
  if (fd < 0) throw SystemError("mkostemp", errno, named, ExitCode::kRuntime);
  if (::fchmod(fd, 0644) != 0) {
    const int err = errno;
    ::close(fd);
    ::unlink(name.c_str());
    throw SystemError("fchmod", err, named, ExitCode::kRuntime);
  }
  return fd;
}

}  // namespace

std::string temporary_beside(const std::string& path, const std::string& option) {
  std::string name;
  ::close(make_temporary(path, name, option));
  return name;
}

void write_file_atomically(const std::string& path, std::string_view text,
                           const std::string& option) {
  std::string tmp;
  const int fd = make_temporary(path, tmp, option);
  const std::string named = option + " " + printable(tmp);
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

int write_output_file(const std::string& path, std::string_view text, const std::string& option,
                      int code, std::ostream& log, std::string_view who) {
  try {
    write_file_atomically(path, text, option);
  } catch (const Error& e) {
    log << who << ": " << e.what() << "\n";
    return code != 0 ? code : static_cast<int>(ExitCode::kRuntime);
  }
  log << who << ": wrote " << printable(path) << "\n";
  return code;
}

}  // namespace rdmabench
