#include "core/output_file.h"

#include <filesystem>
#include <fstream>

#include "core/error.h"

namespace rdmabench {

void check_writable(const std::string& path, const std::string& option) {
  std::error_code ignored;
  const bool existed = std::filesystem::exists(path, ignored);
  const bool writable = static_cast<bool>(std::ofstream(path, std::ios::app));
  if (!existed) std::filesystem::remove(path, ignored);
  if (!writable) throw Error(ExitCode::kUsage, option + " " + path + ": cannot write there");
}

}  // namespace rdmabench
