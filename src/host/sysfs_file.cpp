#include "host/sysfs_file.h"

#include <algorithm>
#include <fstream>

namespace rdmabench {

namespace {

// At most `limit` bytes from the start of `file` ("" when it cannot be read).
std::string read_at_most(const std::filesystem::path& file, std::size_t limit) {
  std::ifstream in(file, std::ios::binary);
  std::string text(limit, '\0');
  in.read(text.data(), static_cast<std::streamsize>(limit));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
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
