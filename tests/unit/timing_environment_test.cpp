#include "host/timing_environment.h"

#include <gtest/gtest.h>

using namespace rdmabench;

TEST(TimingEnvironment, PlainKernelIsRealTime) {
  const auto env = parse_timing_environment("BOOT_IMAGE=/vmlinuz root=/dev/sda1 quiet");
  EXPECT_FALSE(env.deterministic());
  EXPECT_EQ(env.mode, "realtime");
  EXPECT_EQ(env.describe(), "real time");
}

TEST(TimingEnvironment, IcountGuestAnnouncesShiftAndQemu) {
  const auto env = parse_timing_environment(
      "console=ttyS0 maxcpus=1 rdmabench.timing=icount rdmabench.icount_shift=3 "
      "rdmabench.qemu=7.2.22\n");
  EXPECT_TRUE(env.deterministic());
  EXPECT_EQ(env.icount_shift, "3");
  EXPECT_EQ(env.qemu_version, "7.2.22");
  EXPECT_NE(env.describe().find("shift=3"), std::string::npos);
}

TEST(TimingEnvironment, OnlyWholeKeysMatch) {
  EXPECT_FALSE(parse_timing_environment("xrdmabench.timing=icount").deterministic());
  EXPECT_FALSE(parse_timing_environment("rdmabench.timing=icountx").deterministic());
  const auto env = parse_timing_environment("rdmabench.timing=icount");
  EXPECT_EQ(env.icount_shift, "?");
}
