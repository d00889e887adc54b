// The rdma_cm bootstrap: the server listens on a fresh rdma_cm port and says which; the client
// resolves and connects one rdma_cm id per stream; rdma_cm moves the QPs through their states;
// then both sides exchange their buffers ("buf" messages).
#pragma once

#include <memory>

#include "bootstrap/bootstrap.h"

namespace rdmabench {

// -d over rdma_cm: rdma_cm takes the device behind the local address of the route, so a client
// that names a device resolves from that device's own address. `options` with its source_host
// set so (unchanged when no device is named or a source is already given, as a mesh rank gives
// its own); an error naming the device when it has no address.
BootstrapOptions with_device_address(BootstrapOptions options);

std::unique_ptr<Endpoint> rdmacm_client(ControlChannel& control, const TestSpec& spec,
                                        const BootstrapOptions& options);
std::unique_ptr<Endpoint> rdmacm_server(ControlChannel& control, const TestSpec& spec,
                                        const BootstrapOptions& options);

}  // namespace rdmabench
