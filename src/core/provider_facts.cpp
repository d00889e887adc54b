#include "core/provider_facts.h"

namespace rdmabench {

namespace {
constexpr uint32_t kRxeVendorId = 0xffffff;   // rdma_rxe's RXE_VENDOR_ID
constexpr uint32_t kSiwVendorId = 0x626d74;   // siw's SIW_VENDOR_ID ("bmt")
constexpr uint64_t kSiwInvalidKey = 0x90000;  // rdma/siw-abi.h's SIW_INVAL_UOBJ_KEY
constexpr uint32_t kSiwCqeBytes = 32;         // sizeof(struct siw_cqe)
}  // namespace

std::optional<ProviderFacts> provider_by_vendor(uint32_t vendor_id) {
  switch (vendor_id) {
    case kRxeVendorId:
      return ProviderFacts{"rxe", true, "", false, false};
    case kSiwVendorId:
      return ProviderFacts{"siw",
                           false,
                           "rdma-core's siw provider carries no immediate data (it takes no "
                           "receive without a buffer and delivers no immediate value)",
                           true,
                           true,
                           kSiwInvalidKey,
                           kSiwCqeBytes};
    default:
      return std::nullopt;
  }
}

bool carries_immediate_data(uint32_t vendor_id) {
  const auto facts = provider_by_vendor(vendor_id);
  return !facts || facts->immediate_data;
}

bool sends_from_kernel_thread(uint32_t vendor_id) {
  const auto facts = provider_by_vendor(vendor_id);
  return facts && facts->sends_from_kernel_thread;
}

uint32_t key_cover_entries(uint32_t vendor_id, uint64_t page_size) {
  const auto facts = provider_by_vendor(vendor_id);
  if (!facts || facts->refused_queue_key == 0 || page_size == 0) return 0;
  // Pages 0 to the key's, whole: the first queue of a context is mapped from offset 0.
  const uint64_t pages = facts->refused_queue_key / page_size + 1;
  return static_cast<uint32_t>(pages * page_size / facts->completion_entry_bytes);
}

}  // namespace rdmabench
