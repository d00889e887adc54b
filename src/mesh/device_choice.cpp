#include "mesh/device_choice.h"

#include <algorithm>

#include "core/error.h"
#include "verbs/no_device_advice.h"

namespace rdmabench {

namespace {

// Devices with an ACTIVE port, by name.
std::vector<const DeviceReport*> active_devices(const std::vector<DeviceReport>& devices) {
  std::vector<const DeviceReport*> out;
  for (const DeviceReport& d : devices)
    if (first_active_port(d) != nullptr) out.push_back(&d);
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->name < b->name; });
  return out;
}

std::string names_of(const std::vector<const DeviceReport*>& devices) {
  std::string out;
  for (const DeviceReport* d : devices) out += (out.empty() ? "" : ",") + d->name;
  return out.empty() ? "none" : out;
}

// No device, or none with an ACTIVE port: exit 3 with what to do, whatever the ranks.
Error no_active_device(const std::vector<DeviceReport>& devices, const std::string& host) {
  std::vector<const DeviceReport*> all;
  for (const DeviceReport& d : devices) all.push_back(&d);
  const std::string what_to_do =
      devices.empty() ? no_device_advice()
                      : "bring a port up (`rdmabench devices` shows each port's state)";
  return Error(ExitCode::kNoDevice, "host " + host + " has no RDMA device with an ACTIVE port (" +
                                        names_of(all) + "): " + what_to_do);
}

}  // namespace

RankDevice default_device_for(int local_rank, int local_size,
                              const std::vector<DeviceReport>& devices,
                              std::string (*address_of)(const std::string& netdev),
                              const std::string& host) {
  if (local_size <= 1) return {"", "", "the host's first device (one rank on the host)"};
  const auto active = active_devices(devices);
  const auto ranks = std::to_string(local_size);
  if (active.empty()) throw no_active_device(devices, host);
  if (active.size() < static_cast<size_t>(local_size))
    throw Error(ExitCode::kUsage,
                "host " + host + " runs " + ranks + " ranks but has " +
                    std::to_string(active.size()) + " active RDMA devices (" + names_of(active) +
                    "): give --device with one device per rank (a host's k-th rank takes the "
                    "k-th) and --address likewise, or run at most " +
                    std::to_string(active.size()) + " ranks per host");
  const DeviceReport& mine = *active[static_cast<size_t>(local_rank)];
  const std::string netdev = first_active_port(mine)->netdev;  // the port its runs take
  const std::string address = netdev.empty() ? "" : address_of(netdev);
  if (address.empty())
    throw Error(ExitCode::kUsage, "host " + host + ": " + mine.name + " (this host's rank " +
                                      std::to_string(local_rank) + "'s device) has no netdev " +
                                      "with an IPv4 address" +
                                      (netdev.empty() ? "" : " (" + netdev + ")") +
                                      ": give --address with one address per rank");
  return {mine.name, address,
          "local rank " + std::to_string(local_rank) + " of " + ranks + " on the host: active " +
              "device " + std::to_string(local_rank) + " of " + std::to_string(active.size()) +
              " (" + names_of(active) + "), " + mine.name + ", netdev " + netdev + ", " + address};
}

}  // namespace rdmabench
