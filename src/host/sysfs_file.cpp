#include "host/sysfs_file.h"

#include <algorithm>

#include "core/bounded_read.h"

namespace rdmabench {

namespace {

// At most `limit` bytes from the start of `file` ("" when it cannot be read).
std::string read_at_most(const std::filesystem::path& file, std::size_t limit) {
  return read_file_up_to(file.string(), limit).value_or("");
}

}  // namespace

std::string first_line(const std::filesystem::path& file) {
  std::string text = read_at_most(file, kMaxSysfsLine);
  text.resize(std::min(text.find('\n'), text.size()));
  return text;
}

std::string whole_file(const std::filesystem::path& file) {
  return read_at_most(file, kMaxProcFile);
}

}  // namespace rdmabench
