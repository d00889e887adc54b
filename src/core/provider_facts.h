// What rdma-core's providers carry that no device attribute tells, by the vendor id a device
// reports: the software devices (which have no bus device whose driver sysfs names) and the
// verbs a provider refuses although its transport has them. One table, unit-tested.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace rdmabench {

struct ProviderFacts {
  std::string driver;   // the kernel driver: "rxe", "siw"
  bool immediate_data;  // sends and writes with immediate data are carried
  std::string why_not;  // when they are not: why, for the refusal
  // Registered memory counts against RLIMIT_MEMLOCK even for a process with CAP_IPC_LOCK
  // (root): siw's siw_umem_get checks the limit itself.
  bool memlock_binds_root = false;
  // The device sends from a kernel thread on the sender's CPU (siw's siw_tx/N), so a side that
  // spins on that CPU holds its own sending off until the scheduler's tick.
  bool sends_from_kernel_thread = false;
};

// The provider a vendor id stands for, where rdmabench knows one by it (the software
// devices: Soft-RoCE's 0xffffff, siw's 0x626d74, "bmt"); nullopt for any other vendor.
std::optional<ProviderFacts> provider_by_vendor(uint32_t vendor_id);

// Whether a device carries immediate data (true where nothing says otherwise).
bool carries_immediate_data(uint32_t vendor_id);

// Whether a device sends from a kernel thread (false where nothing says otherwise).
bool sends_from_kernel_thread(uint32_t vendor_id);

}  // namespace rdmabench
