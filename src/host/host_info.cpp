#include "host/host_info.h"

#include <dlfcn.h>
#include <infiniband/verbs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <climits>
#include <cstdlib>
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

namespace {

// The real path of the file the dynamic loader mapped libibverbs from, or "".
std::string loaded_libibverbs() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&ibv_get_device_list), &info) == 0 || !info.dli_fname)
    return "";
  std::array<char, PATH_MAX> real{};
  return realpath(info.dli_fname, real.data()) ? real.data() : info.dli_fname;
}

}  // namespace

std::string rdma_core_version() {
  std::ifstream status("/var/lib/dpkg/status");
  const std::string version = status ? installed_package_version(status, "rdma-core") : "";
  return rdma_core_description(version.empty() ? "unknown" : version, loaded_libibverbs());
}

std::string rdma_core_description(std::string_view installed_version,
                                  std::string_view loaded_libibverbs) {
  const bool system = loaded_libibverbs.empty() || loaded_libibverbs.starts_with("/usr/lib/") ||
                      loaded_libibverbs.starts_with("/lib/");
  if (system) return std::string(installed_version);
  const size_t slash = loaded_libibverbs.rfind('/');
  const std::string_view folder =
      loaded_libibverbs.substr(0, slash == std::string_view::npos ? 0 : slash);
  return "build in " + std::string(folder) + " (installed: " + std::string(installed_version) + ")";
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
