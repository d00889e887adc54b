#include "host/host_info.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <memory>

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
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(
      popen("dpkg-query -W -f='${Version}' rdma-core 2>/dev/null", "r"), pclose);
  if (!pipe) return "unknown";
  std::array<char, 128> buf{};
  const size_t n = fread(buf.data(), 1, buf.size() - 1, pipe.get());
  return n == 0 ? "unknown" : std::string(buf.data(), n);
}

}  // namespace rdmabench
