// A page-aligned buffer registered with the device (ibv_mr), owned together.
#pragma once

#include <infiniband/verbs.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "core/page_buffer.h"
#include "verbs/protection_domain.h"

namespace rdmabench {

class MemoryRegion {
 public:
  static constexpr int kRemoteAccess =
      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;

  // Page-aligned and zeroed (an atomic pattern's counter starts at 0 there), in the system's
  // pages or in 2 MiB huge pages.
  MemoryRegion(const ProtectionDomain& pd, size_t length, int access = kRemoteAccess,
               Pages pages = Pages::kSystem);
  ~MemoryRegion();
  MemoryRegion(const MemoryRegion&) = delete;
  MemoryRegion& operator=(const MemoryRegion&) = delete;

  std::span<uint8_t> bytes() noexcept { return {buffer_.data(), length_}; }
  uint8_t* data() noexcept { return buffer_.data(); }
  size_t length() const noexcept { return length_; }
  size_t page_size() const noexcept { return buffer_.page_size(); }
  uint64_t address() const noexcept { return reinterpret_cast<uintptr_t>(buffer_.data()); }
  uint32_t lkey() const noexcept { return mr_->lkey; }
  uint32_t rkey() const noexcept { return mr_->rkey; }

 private:
  PageBuffer buffer_;  // registered whole; outlives the registration
  size_t length_;
  ibv_mr* mr_ = nullptr;
};

}  // namespace rdmabench
