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
  // A queue mapping key (byte offset) the provider takes for "no mapping" although the kernel
  // hands it out, 0 where none: rdma-core's siw provider still checks each key siw returns
  // against SIW_INVAL_UOBJ_KEY (0x90000), once the largest key, while the kernel now gives a
  // context's queues page offsets first fit (rdma_user_mmap_entry_insert); whichever queue is
  // mapped at that offset fails to create, and sets no errno.
  uint64_t refused_queue_key = 0;
  uint32_t completion_entry_bytes = 0;  // the provider's completion entry (siw_cqe: 32 bytes)
};

// The provider a vendor id stands for, where rdmabench knows one by it (the software
// devices: Soft-RoCE's 0xffffff, siw's 0x626d74, "bmt"); nullopt for any other vendor.
std::optional<ProviderFacts> provider_by_vendor(uint32_t vendor_id);

// Whether a device carries immediate data (true where nothing says otherwise).
bool carries_immediate_data(uint32_t vendor_id);

// Whether a device sends from a kernel thread (false where nothing says otherwise).
bool sends_from_kernel_thread(uint32_t vendor_id);

// The entries of a CQ whose queue, made before any other queue of a context, covers every
// page up to the one of the provider's refused key (pages of `page_size` bytes), so that no
// later queue is given that key; 0 where the provider refuses none.
uint32_t key_cover_entries(uint32_t vendor_id, uint64_t page_size);

}  // namespace rdmabench
