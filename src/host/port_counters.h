// What the wire saw: a port's counters as the kernel shows them in sysfs, read before and after
// a run (never inside its timed window), as plain name -> value maps.
// - hw_<name>: ports/N/hw_counters/* (driver counters: rxe's retransmissions, sequence errors,
//   RNR NAKs and packets; mlx5's CNPs and ECN marks);
// - port_<name>: ports/N/counters/* (the IB port counters, where the driver has them; the data
//   counters count 4-byte words, as the IB spec says);
// - netdev_<name>: the RoCE port's Ethernet device, /sys/class/net/DEV/statistics (bytes,
//   packets, drops, errors).
// Every one of them is port-wide: other traffic on the port moves it too.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

#include "core/counter_name.h"

namespace rdmabench {

using CounterSnapshot = std::map<std::string, uint64_t>;

struct PortPlace {
  std::string device;  // rxe0, mlx5_0
  uint32_t port = 1;
  std::string netdev;  // empty on InfiniBand
};

class PortCounters {
 public:
  // `sysfs` is /sys but for tests.
  explicit PortCounters(PortPlace place, std::filesystem::path sysfs = "/sys");
  // Every counter readable now; files that are not counters (rxe's "lifespan") or that cannot
  // be read are left out.
  CounterSnapshot read() const;
  const PortPlace& place() const noexcept { return place_; }

 private:
  PortPlace place_;
  std::filesystem::path sysfs_;
};

// after - before, name by name, for the names in both (a counter that went back, reset by
// someone, counts 0).
CounterSnapshot counter_deltas(const CounterSnapshot& before, const CounterSnapshot& after);

}  // namespace rdmabench
