#include "core/provider_facts.h"

namespace rdmabench {

namespace {
constexpr uint32_t kRxeVendorId = 0xffffff;  // rdma_rxe's RXE_VENDOR_ID
constexpr uint32_t kSiwVendorId = 0x626d74;  // siw's SIW_VENDOR_ID ("bmt")
}  // namespace

std::optional<ProviderFacts> provider_by_vendor(uint32_t vendor_id) {
  switch (vendor_id) {
    case kRxeVendorId:
      return ProviderFacts{"rxe", true, "", false, false};
    case kSiwVendorId:
      return ProviderFacts{"siw", false,
                           "rdma-core's siw provider carries no immediate data (it takes no "
                           "receive without a buffer and delivers no immediate value)",
                           true, true};
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

}  // namespace rdmabench
