#include "core/page_buffer.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/system_error.h"

#ifndef MAP_HUGE_2MB
#define MAP_HUGE_2MB (21 << MAP_HUGE_SHIFT)
#endif

namespace rdmabench {

uint64_t page_bytes(Pages pages) {
  return pages == Pages::kHuge2M ? kHugePageBytes : static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

uint64_t mapped_bytes(uint64_t length, Pages pages) {
  const uint64_t page = page_bytes(pages);
  const uint64_t count = length / page + (length % page != 0 || length == 0 ? 1 : 0);
  uint64_t bytes = 0;
  return __builtin_mul_overflow(count, page, &bytes) ? UINT64_MAX : bytes;
}

PageBuffer::PageBuffer(size_t length, Pages pages) {
  if (pages == Pages::kHuge2M) {
    page_size_ = kHugePageBytes;
    length_ = mapped_bytes(length, pages);
    void* p = mmap(nullptr, length_, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_HUGE_2MB, -1, 0);
    if (p == MAP_FAILED) {
      const int err = errno;
      throw Error(ExitCode::kNoDevice,
                  "--hugepages: no " + std::to_string(length_ >> 20) + " MiB of free 2 MiB huge " +
                      "pages (mmap MAP_HUGETLB: " + std::strerror(err) +
                      "); reserve some with `sysctl vm.nr_hugepages=N` (HugePages_Free in "
                      "/proc/meminfo says how many are free), or run without --hugepages");
    }
    data_ = static_cast<uint8_t*>(p);  // zeroed by the kernel
    mapped_ = true;
    return;
  }
  page_size_ = page_bytes(pages);
  length_ = mapped_bytes(length, pages);
  void* raw = std::aligned_alloc(page_size_, length_);
  if (raw == nullptr)
    throw SystemError("aligned_alloc", ENOMEM, std::to_string(length_) + " bytes");
  std::memset(raw, 0, length_);
  data_ = static_cast<uint8_t*>(raw);
}

PageBuffer::~PageBuffer() {
  if (mapped_)
    munmap(data_, length_);
  else
    std::free(data_);
}

}  // namespace rdmabench
