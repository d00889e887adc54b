// Facts about this host that go into result context and the server's hello.
#pragma once

#include <istream>
#include <string>
#include <string_view>

namespace rdmabench {

std::string host_name();
std::string kernel_release();
// The installed rdma-core package version, or "unknown". Read from dpkg's database
// (/var/lib/dpkg/status) in this process: dpkg-query, a process of its own, took 0.4 s a call
// in the rxe guest, where every run and every server hello asked it.
std::string rdma_core_version();
// The version of `package` in a dpkg status database's text if it is installed, else "".
std::string installed_package_version(std::istream& dpkg_status, std::string_view package);

}  // namespace rdmabench
