#include "host/timing_environment.h"

#include <gtest/gtest.h>

#include <string>

#include "runner/run_context.h"

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
  EXPECT_EQ(env.icount_shift, 3);
  EXPECT_EQ(env.qemu_version, "7.2.22");
  EXPECT_NE(env.describe().find("shift=3"), std::string::npos);
}

TEST(TimingEnvironment, OnlyWholeKeysMatch) {
  EXPECT_FALSE(parse_timing_environment("xrdmabench.timing=icount").deterministic());
  EXPECT_FALSE(parse_timing_environment("rdmabench.timing=icountx").deterministic());
  const auto env = parse_timing_environment("rdmabench.timing=icount");
  EXPECT_EQ(env.icount_shift, std::nullopt);
  EXPECT_EQ(env.describe(), "deterministic: QEMU (version unsaid) -icount (shift unsaid)");
}

TEST(TimingEnvironment, TheGuestsAccelerationComesFromItsCommandLineElseFromCpuid) {
  EXPECT_EQ(parse_timing_environment("quiet").acceleration, "none");
  EXPECT_EQ(parse_timing_environment("quiet", "kvm").acceleration, "kvm");
  const auto emulated = parse_timing_environment("quiet rdmabench.accel=tcg", "other");
  EXPECT_EQ(emulated.acceleration, "tcg");
  EXPECT_TRUE(emulated.software_emulated());
  EXPECT_NE(emulated.describe().find("software-emulated"), std::string::npos)
      << emulated.describe();
  EXPECT_EQ(parse_timing_environment("rdmabench.accel=kvm").describe(), "real time");
  // A word it does not know is not taken: what CPUID says stands.
  EXPECT_EQ(parse_timing_environment("rdmabench.accel=\x1b[2J", "kvm").acceleration, "kvm");
  EXPECT_EQ(
      parse_timing_environment("rdmabench.accel=tcg-icount rdmabench.timing=icount").acceleration,
      "tcg-icount");
}

TEST(TimingEnvironment, CpuidSignaturesNameTheirHypervisor) {
  EXPECT_EQ(hypervisor_of(std::string_view("KVMKVMKVM\0\0\0", 12)), "kvm");
  EXPECT_EQ(hypervisor_of("TCGTCGTCGTCG"), "tcg");
  EXPECT_EQ(hypervisor_of("Microsoft Hv"), "hyperv");
  EXPECT_EQ(hypervisor_of("VMwareVMware"), "vmware");
  EXPECT_EQ(hypervisor_of("XenVMMXenVMM"), "xen");
  EXPECT_EQ(hypervisor_of("bhyve bhyve "), "other");
}

// The context's icount_shift is a number or null, whatever the command line says: a guest
// announcing icount without a shift, or with one that is not a number, made the context's
// writer throw (std::stoi) once the run was over.
TEST(TimingEnvironment, TheContextTakesTheShiftAsANumberOrNull) {
  for (const char* cmdline :
       {"rdmabench.timing=icount", "rdmabench.timing=icount rdmabench.icount_shift=abc",
        "rdmabench.timing=icount rdmabench.icount_shift=99999999999",
        "rdmabench.timing=icount rdmabench.icount_shift=-1",
        "rdmabench.timing=icount rdmabench.icount_shift=11"}) {
    nlohmann::json facts;
    EXPECT_NO_THROW(facts = timing_facts(parse_timing_environment(cmdline))) << cmdline;
    EXPECT_TRUE(facts["icount_shift"].is_null()) << cmdline << ": " << facts.dump();
    EXPECT_EQ(facts["timing_mode"], "icount") << cmdline;
  }
  const nlohmann::json three = timing_facts(parse_timing_environment(
      "rdmabench.timing=icount rdmabench.icount_shift=3 rdmabench.qemu=7.2.22"));
  EXPECT_EQ(three["icount_shift"], 3);
  EXPECT_EQ(three["qemu_version"], "7.2.22");
  EXPECT_TRUE(timing_facts(parse_timing_environment("quiet"))["icount_shift"].is_null());
}

// What the command line says of QEMU reaches the context and the banner printable and short.
TEST(TimingEnvironment, TheQemuVersionIsPrintableAndBounded) {
  const auto env = parse_timing_environment(
      "rdmabench.timing=icount rdmabench.icount_shift=3 "
      "rdmabench.qemu=\x1b[2J" +
      std::string(5000, '7'));
  EXPECT_TRUE(env.qemu_version.empty()) << env.qemu_version;
  EXPECT_TRUE(timing_facts(env)["qemu_version"].is_null());
  EXPECT_EQ(env.describe().find('\x1b'), std::string::npos) << env.describe();
  EXPECT_LT(env.describe().size(), 200u) << env.describe();
}
