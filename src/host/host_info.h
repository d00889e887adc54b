// Facts about this host that go into result context and the server's hello.
#pragma once

#include <string>

namespace rdmabench {

std::string host_name();
std::string kernel_release();
// The installed rdma-core package version, or "unknown".
std::string rdma_core_version();

}  // namespace rdmabench
