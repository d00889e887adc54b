// What the wire saw: a port's counters as the kernel shows them in sysfs, read before and after
// a run (never inside its timed window), as plain name -> value maps.
// - hw_<name>: ports/N/hw_counters/* (driver counters: rxe's retransmissions, sequence errors,
//   RNR NAKs and packets; mlx5's CNPs and ECN marks);
// - port_<name>: ports/N/counters/* (the IB port counters, where the driver has them; the data
//   counters count 4-byte words, as the IB spec says);
// - netdev_<name>: the RoCE port's Ethernet device, /sys/class/net/DEV/statistics (bytes,
//   packets, drops, errors).
// Every one of them is port-wide: other traffic on the port moves it too.
//
// The kernel keeps a driver's hw_counters for hw_counters/lifespan (rxe, mlx5: 10 ms, shown
// rounded to jiffies) and answers every read within that time from what it read before; so a
// reading waits that long, and a jiffy more, before it reads. Without the wait a short run read
// what the kernel had kept from before it began: deltas of 0, or of the previous run.
#pragma once

#include <chrono>
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
  // Every counter as it is now, after waiting fresh_after(); files that are not counters
  // (rxe's "lifespan") or that cannot be read are left out.
  CounterSnapshot read() const;
  const PortPlace& place() const noexcept { return place_; }
  // How long a reading waits so that the kernel reads hw_counters anew (0: no lifespan).
  std::chrono::milliseconds fresh_after() const noexcept { return fresh_after_; }

 private:
  PortPlace place_;
  std::filesystem::path sysfs_;
  std::chrono::milliseconds fresh_after_{0};
};

// after - before, name by name, for the names in both (a counter that went back, reset by
// someone, counts 0).
CounterSnapshot counter_deltas(const CounterSnapshot& before, const CounterSnapshot& after);

}  // namespace rdmabench
