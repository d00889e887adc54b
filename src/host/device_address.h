// The IP address an RDMA device answers at: what rdma_cm must resolve from so that it takes that
// device (it picks the device behind the local address of the route), when `-d` names one.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "core/device_report.h"

namespace rdmabench {

// The IPv4 address of a netdev (getifaddrs' first), nullopt when it has none.
using NetdevAddress = std::function<std::optional<std::string>(const std::string& netdev)>;
std::optional<std::string> netdev_ipv4(const std::string& netdev);

// The first IPv4 address of an active port of `device`: a RoCE GID that maps one, else the
// address of the port's netdev (iWARP, whose GID is a MAC; RoCE without an IPv4 GID). nullopt
// when none has one (InfiniBand: its IPoIB netdev is not known here).
std::optional<std::string> device_ipv4(const DeviceReport& device,
                                       const NetdevAddress& netdev_address = netdev_ipv4);

}  // namespace rdmabench
