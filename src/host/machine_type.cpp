#include "host/machine_type.h"

#include "host/sysfs_file.h"

namespace rdmabench {

std::string machine_type(const std::filesystem::path& sys) {
  std::string name = first_line(sys / "class" / "dmi" / "id" / "product_name").substr(0, 256);
  const size_t first = name.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  const size_t last = name.find_last_not_of(" \t\r");
  return name.substr(first, last - first + 1);
}

}  // namespace rdmabench
