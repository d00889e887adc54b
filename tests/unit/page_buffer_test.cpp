// The registered buffers' pages: the system's, or 2 MiB huge pages (--hugepages), refused
// with what to do when the host has too few free.
#include "core/page_buffer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "core/error.h"

namespace rdmabench {
namespace {

// HugePages_Free of /proc/meminfo: 2 MiB pages free on this host.
long free_huge_pages() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  long value = 0;
  while (meminfo >> key >> value)
    if (key == "HugePages_Free:") return value;
  return 0;
}

TEST(PageBuffer, SystemPagesAreWholeZeroedAndAligned) {
  const PageBuffer b(5000, Pages::kSystem);
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  EXPECT_EQ(b.page_size(), page);
  EXPECT_EQ(b.length() % page, 0u);
  EXPECT_GE(b.length(), 5000u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.data()) % page, 0u);
  for (size_t i = 0; i < b.length(); ++i) ASSERT_EQ(b.data()[i], 0) << i;
}

TEST(PageBuffer, HugePagesAreTakenWhereFreeAndElseRefusedSayingHowToReserve) {
  if (free_huge_pages() >= 2) {
    const PageBuffer b(3 << 20, Pages::kHuge2M);
    EXPECT_EQ(b.page_size(), kHugePageBytes);
    EXPECT_EQ(b.length(), 2 * kHugePageBytes);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(b.data()) % kHugePageBytes, 0u);
    return;
  }
  try {
    const PageBuffer b(3 << 20, Pages::kHuge2M);
    FAIL() << "huge pages granted with HugePages_Free " << free_huge_pages();
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kNoDevice);
    const std::string text = e.what();
    EXPECT_NE(text.find("--hugepages: no 4 MiB of free 2 MiB huge pages"), std::string::npos)
        << text;
    EXPECT_NE(text.find("sysctl vm.nr_hugepages=N"), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace rdmabench
