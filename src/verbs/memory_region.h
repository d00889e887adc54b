// A page-aligned buffer registered with the device (ibv_mr), owned together.
#pragma once

#include <infiniband/verbs.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "verbs/protection_domain.h"

namespace rdmabench {

class MemoryRegion {
 public:
  static constexpr int kRemoteAccess =
      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;

  // Page-aligned and zeroed (an atomic pattern's counter starts at 0 there).
  MemoryRegion(const ProtectionDomain& pd, size_t length, int access = kRemoteAccess);
  ~MemoryRegion();
  MemoryRegion(const MemoryRegion&) = delete;
  MemoryRegion& operator=(const MemoryRegion&) = delete;

  std::span<uint8_t> bytes() noexcept { return {data_.get(), length_}; }
  uint8_t* data() noexcept { return data_.get(); }
  size_t length() const noexcept { return length_; }
  uint64_t address() const noexcept { return reinterpret_cast<uintptr_t>(data_.get()); }
  uint32_t lkey() const noexcept { return mr_->lkey; }
  uint32_t rkey() const noexcept { return mr_->rkey; }

 private:
  struct FreeDeleter {
    void operator()(uint8_t* p) const noexcept { std::free(p); }
  };
  std::unique_ptr<uint8_t, FreeDeleter> data_;
  size_t length_;
  ibv_mr* mr_ = nullptr;
};

}  // namespace rdmabench
