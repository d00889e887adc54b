// What one side chooses for itself, and never the other: the device it opens, the port its QPs
// go out of, and its source GID index. A client's choices stay on the client; a server's come
// from `serve`'s own options (perftest lets each side give -d, -i and -x alike).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace rdmabench {

struct LocalDevice {
  std::string device;                 // "" the first device
  uint8_t ib_port = 1;                // out of band (rdma_cm picks its own from the address)
  std::optional<uint32_t> gid_index;  // out of band; empty: the device's default, as
                                      // `rdmabench devices` marks it
};

}  // namespace rdmabench
