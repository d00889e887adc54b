// The connection bootstrap every pattern uses. After the client has sent "setup", both sides
// call their half, which hands over to the spec's bootstrap, one file each:
//   rdmacm_bootstrap.cpp: rdma_cm moves the QPs through their states;
//   oob_bootstrap.cpp:    QP addresses exchanged over the control channel, states moved by hand.
// Each returns a connected Endpoint that knows the peer's buffer.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "core/local_device.h"
#include "datapath/endpoint.h"
#include "messages/control_channel.h"

namespace rdmabench {

struct BootstrapOptions {
  LocalDevice local;        // this side's device, port and GID index (oob)
  std::string server_host;  // client: where the server is
  std::chrono::milliseconds timeout{5000};
  // rdma_cm client: the local address to resolve from, so that rdma_cm takes the device
  // behind it (a mesh rank's own NIC; empty: the route decides)
  std::string source_host;

  static BootstrapOptions client(const std::string& server_host, const LocalDevice& local,
                                 std::chrono::milliseconds timeout, std::string source_host = {}) {
    return {local, server_host, timeout, std::move(source_host)};
  }
  static BootstrapOptions server(const LocalDevice& local, std::chrono::milliseconds timeout) {
    return {local, {}, timeout, {}};
  }
};

std::unique_ptr<Endpoint> client_bootstrap(ControlChannel& control, const TestSpec& spec,
                                           const BootstrapOptions& options);
std::unique_ptr<Endpoint> server_bootstrap(ControlChannel& control, const TestSpec& spec,
                                           const BootstrapOptions& options);

// ibv_mtu for a size in bytes (256..4096); throws Error(kUsage) otherwise.
ibv_mtu mtu_from_bytes(uint32_t bytes);

}  // namespace rdmabench
