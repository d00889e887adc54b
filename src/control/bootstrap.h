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

#include "control/control_channel.h"
#include "datapath/endpoint.h"

namespace rdmabench {

struct BootstrapOptions {
  std::string device;       // oob: the device to open (empty = first)
  std::string server_host;  // client: where the server is
  std::chrono::milliseconds timeout{5000};
  uint8_t ib_port = 1;  // oob: the device's port (rdma_cm picks its own from the address)
  // rdma_cm client: the local address to resolve from, so that rdma_cm takes the device
  // behind it (a mesh rank's own NIC; empty: the route decides)
  std::string source_host;
  // oob: this side's source GID index (empty: the device's default, as `rdmabench devices`
  // marks it). Each side's own choice: the client's --gid-index is never the server's.
  std::optional<uint32_t> gid_index;

  static BootstrapOptions client(const std::string& server_host, const std::string& device,
                                 std::chrono::milliseconds timeout, uint8_t ib_port = 1,
                                 std::string source_host = {},
                                 std::optional<uint32_t> gid_index = {}) {
    return {device, server_host, timeout, ib_port, std::move(source_host), gid_index};
  }
  static BootstrapOptions server(const std::string& device, std::chrono::milliseconds timeout,
                                 uint8_t ib_port = 1, std::optional<uint32_t> gid_index = {}) {
    return {device, {}, timeout, ib_port, {}, gid_index};
  }
};

std::unique_ptr<Endpoint> client_bootstrap(ControlChannel& control, const TestSpec& spec,
                                           const BootstrapOptions& options);
std::unique_ptr<Endpoint> server_bootstrap(ControlChannel& control, const TestSpec& spec,
                                           const BootstrapOptions& options);

// ibv_mtu for a size in bytes (256..4096); throws Error(kUsage) otherwise.
ibv_mtu mtu_from_bytes(uint32_t bytes);

}  // namespace rdmabench
