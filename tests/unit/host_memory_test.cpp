// What this host can give one client without harm (host/host_memory.h), from fake /proc files.
#include "host/host_memory.h"

#include <gtest/gtest.h>

namespace rdmabench {
namespace {

constexpr const char* kMeminfo =
    "MemTotal:        8000000 kB\n"
    "MemFree:         1000000 kB\n"
    "HugePages_Total:     512\n"
    "HugePages_Free:      500\n"
    "Hugepagesize:       2048 kB\n";
constexpr const char* kRoot = "Name:\trdmabench\nCapEff:\t000001ffffffffff\n";
constexpr const char* kUser = "Name:\trdmabench\nCapEff:\t0000000000000000\n";

TEST(HostMemory, ReadFromMeminfoTheLimitAndTheCapabilities) {
  const HostMemory h = host_memory_of(kMeminfo, kRoot, 64 << 10);
  EXPECT_EQ(h.physical_bytes, 8000000ull << 10);
  EXPECT_EQ(h.huge_page_bytes, 512ull << 21);
  EXPECT_TRUE(h.lock_capability);
  EXPECT_FALSE(host_memory_of(kMeminfo, kUser, std::nullopt).lock_capability);
  EXPECT_EQ(meminfo_value(kMeminfo, "HugePages_Free"), 500);
  EXPECT_EQ(meminfo_value(kMeminfo, "Nothing"), -1);
}

TEST(HostMemory, APinnedCapIsHalfTheMemoryOrTheMemlockLimitWhereItBinds) {
  const auto root = default_pin_cap(host_memory_of(kMeminfo, kRoot, 64 << 10));
  ASSERT_TRUE(root);
  EXPECT_EQ(root->bytes, 4000000ull << 10);  // the limit does not bind CAP_IPC_LOCK
  EXPECT_NE(root->why.find("half this host's memory"), std::string::npos) << root->why;
  const auto user = default_pin_cap(host_memory_of(kMeminfo, kUser, 64 << 10));
  ASSERT_TRUE(user);
  EXPECT_EQ(user->bytes, 64u << 10);
  EXPECT_NE(user->why.find("memlock limit"), std::string::npos) << user->why;
  EXPECT_EQ(default_pin_cap(host_memory_of(kMeminfo, kUser, std::nullopt))->bytes,
            4000000ull << 10);  // unlimited
  EXPECT_EQ(default_huge_page_cap(host_memory_of(kMeminfo, kRoot, std::nullopt))->bytes,
            256ull << 21);
  EXPECT_EQ(latency_sample_cap(host_memory_of(kMeminfo, kRoot, std::nullopt))->bytes,
            4000000ull << 10);
}

TEST(HostMemory, NothingKnownIsNoCapNotAZeroOne) {
  const HostMemory unknown = host_memory_of("", "", std::nullopt);
  EXPECT_FALSE(default_pin_cap(unknown));
  EXPECT_FALSE(default_huge_page_cap(unknown));
  EXPECT_FALSE(latency_sample_cap(unknown));
  EXPECT_FALSE(default_huge_page_cap(host_memory_of("MemTotal: 1000 kB\n", kRoot, std::nullopt)))
      << "no huge page reserved: a run on them fails on its own";
}

}  // namespace
}  // namespace rdmabench
