// `rdmabench devices`: list RDMA devices, ports and GIDs.
#pragma once

namespace rdmabench {

int run_devices_command(int argc, char** argv);

}  // namespace rdmabench
