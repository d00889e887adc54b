// The one connection bootstrap every pattern uses. After the client has sent "setup", both
// sides call their half; each returns a connected Endpoint that knows the peer's buffer.
//   rdmacm: the server listens on a fresh rdma_cm port and says which; the client resolves
//           and connects; rdma_cm moves the QPs through their states.
//   oob:    QP number, PSN, LID, GID, MTU and buffer are exchanged over the control channel
//           and each side moves its QP RESET->INIT->RTR->RTS itself.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "engine/endpoint.h"
#include "net/control_channel.h"

namespace rdmabench {

struct BootstrapOptions {
  std::string device;       // oob: the device to open (empty = first)
  std::string server_host;  // client: where the server is
  std::chrono::milliseconds timeout{5000};
};

std::unique_ptr<Endpoint> client_bootstrap(ControlChannel& control, const TestSpec& spec,
                                           const BootstrapOptions& options);
std::unique_ptr<Endpoint> server_bootstrap(ControlChannel& control, const TestSpec& spec,
                                           const BootstrapOptions& options);

// ibv_mtu for a size in bytes (256..4096); throws Error(kUsage) otherwise.
ibv_mtu mtu_from_bytes(uint32_t bytes);

}  // namespace rdmabench
