#include "host/host_info.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <fstream>
#include <optional>

namespace rdmabench {

std::string host_name() {
  std::array<char, 256> name{};
  gethostname(name.data(), name.size() - 1);
  return name.data();
}

std::string kernel_release() {
  utsname u{};
  uname(&u);
  return u.release;
}

std::string rdma_core_version() {
  std::ifstream status("/var/lib/dpkg/status");
  const std::string version = status ? installed_package_version(status, "rdma-core") : "";
  return version.empty() ? "unknown" : version;
}

std::string installed_package_version(std::istream& dpkg_status, std::string_view package) {
  // Stanza by stanza (blank-line separated); continuation lines begin with a space and hold
  // no field of their own.
  std::string line, name, status, version;
  const auto field = [&line](std::string_view key) -> std::optional<std::string> {
    if (!line.starts_with(key)) return std::nullopt;
    const size_t value = line.find_first_not_of(' ', key.size());
    return value == std::string::npos ? "" : line.substr(value);
  };
  const auto found = [&] { return name == package && status == "install ok installed"; };
  while (std::getline(dpkg_status, line)) {
    if (line.empty()) {
      if (found()) return version;
      name.clear(), status.clear(), version.clear();
    } else if (auto v = field("Package:")) {
      name = *v;
    } else if (auto v = field("Status:")) {
      status = *v;
    } else if (auto v = field("Version:")) {
      version = *v;
    }
  }
  return found() ? version : "";
}

}  // namespace rdmabench
