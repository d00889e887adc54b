// The out-of-band bootstrap: QP number, PSN, LID, GID, MTU and buffer are exchanged over the
// control channel ("oob" messages, one per stream) and each side moves its QPs
// RESET->INIT->RTR->RTS itself.
#pragma once

#include <memory>

#include "bootstrap/bootstrap.h"

namespace rdmabench {

std::unique_ptr<Endpoint> oob_client(ControlChannel& control, const TestSpec& spec,
                                     const BootstrapOptions& options);
std::unique_ptr<Endpoint> oob_server(ControlChannel& control, const TestSpec& spec,
                                     const BootstrapOptions& options);

}  // namespace rdmabench
