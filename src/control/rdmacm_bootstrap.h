// The rdma_cm bootstrap: the server listens on a fresh rdma_cm port and says which; the client
// resolves and connects one rdma_cm id per stream; rdma_cm moves the QPs through their states;
// then both sides exchange their buffers ("buf" messages).
#pragma once

#include <memory>

#include "control/bootstrap.h"

namespace rdmabench {

std::unique_ptr<Endpoint> rdmacm_client(ControlChannel& control, const TestSpec& spec,
                                        const BootstrapOptions& options);
std::unique_ptr<Endpoint> rdmacm_server(ControlChannel& control, const TestSpec& spec,
                                        const BootstrapOptions& options);

}  // namespace rdmabench
