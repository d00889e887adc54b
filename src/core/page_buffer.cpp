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

namespace {
size_t round_up(size_t length, size_t page) {
  return ((length == 0 ? 1 : length) + page - 1) / page * page;
}
}  // namespace

PageBuffer::PageBuffer(size_t length, Pages pages) {
  if (pages == Pages::kHuge2M) {
    page_size_ = kHugePageBytes;
    length_ = round_up(length, page_size_);
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
  page_size_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  length_ = round_up(length, page_size_);
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
