// Facts about this host that go into result context and the server's hello.
#pragma once

#include <istream>
#include <string>
#include <string_view>

namespace rdmabench {

std::string host_name();
std::string kernel_release();
// The rdma-core this process really uses: the installed package's version, read from dpkg's
// database (/var/lib/dpkg/status) in this process (dpkg-query, a process of its own, took
// 0.4 s a call in the rxe guest, where every run and every server hello asked it), or
// "unknown"; but where the libibverbs loaded is not the system's (LD_LIBRARY_PATH to a build
// tree, as tools/gate's --rdma-core sets), what rdma_core_description says of it.
std::string rdma_core_version();
// "44.0-2" when `loaded_libibverbs` (the file the dynamic loader mapped) lies in the system's
// library folders or is unknown (""), else "build in DIR (installed: 44.0-2)".
std::string rdma_core_description(std::string_view installed_version,
                                  std::string_view loaded_libibverbs);
// The version of `package` in a dpkg status database's text if it is installed, else "".
std::string installed_package_version(std::istream& dpkg_status, std::string_view package);

}  // namespace rdmabench
