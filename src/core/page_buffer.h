// Zeroed memory in whole pages for the buffers a device registers: the system's pages, or
// 2 MiB huge pages (--hugepages, perftest's --use_hugepages), which take fewer of the NIC's
// translation entries for a large buffer.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rdmabench {

enum class Pages { kSystem, kHuge2M };

inline constexpr size_t kHugePageBytes = size_t{2} << 20;

// The size of one page of `pages`: 2 MiB, or the system's.
uint64_t page_bytes(Pages pages);
// What a PageBuffer of `length` bytes takes: whole pages (at least one), UINT64_MAX when that
// is more than can be counted.
uint64_t mapped_bytes(uint64_t length, Pages pages);

class PageBuffer {
 public:
  // At least `length` bytes (a whole number of pages), zeroed. Huge pages that are not there
  // (none reserved, or too few free) are an Error(kNoDevice) that says how to reserve them.
  PageBuffer(size_t length, Pages pages);
  ~PageBuffer();
  PageBuffer(const PageBuffer&) = delete;
  PageBuffer& operator=(const PageBuffer&) = delete;

  uint8_t* data() const noexcept { return data_; }
  size_t length() const noexcept { return length_; }  // rounded up to whole pages
  size_t page_size() const noexcept { return page_size_; }

 private:
  uint8_t* data_ = nullptr;
  size_t length_ = 0;
  size_t page_size_ = 0;
  bool mapped_ = false;  // mmap'd (huge pages), else aligned_alloc'd
};

}  // namespace rdmabench
