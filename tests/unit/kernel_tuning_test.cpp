#include "host/kernel_tuning.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "host/timing_environment.h"
#include "messages/control_messages.h"
#include "runner/run_context.h"

using namespace rdmabench;
using Words = std::vector<std::string>;

TEST(KernelTuning, TheTimingWordsAreKeptInTheirOrderAndTheRestLeft) {
  EXPECT_EQ(kernel_tuning_words("BOOT_IMAGE=/vmlinuz root=/dev/vda ro quiet console=ttyS0"),
            Words{});
  EXPECT_EQ(kernel_tuning_words("root=/dev/vda idle=poll quiet isolcpus=managed_irq,2-5 nosmt\n"),
            (Words{"idle=poll", "isolcpus=managed_irq,2-5", "nosmt"}));
  EXPECT_EQ(kernel_tuning_words("\tintel_idle.max_cstate=0  processor.max_cstate=1 iommu=pt"),
            (Words{"intel_idle.max_cstate=0", "processor.max_cstate=1", "iommu=pt"}));
}

TEST(KernelTuning, OnlyWholeKeysAreTuning) {
  EXPECT_EQ(kernel_tuning_words("idlex=poll xidle=poll idle.x=1 nosmtx rdmabench.idle=poll"),
            Words{});
}

TEST(KernelTuning, AValueTooLongOrUnprintableKeepsItsKeyAlone) {
  const std::string long_word = "isolcpus=" + std::string(kMaxTuningWordLength, '1');
  EXPECT_EQ(kernel_tuning_words("idle=\x1b[2J " + long_word + " nohz_full=1;reboot"),
            (Words{"idle=?", "isolcpus=?", "nohz_full=?"}));
}

TEST(KernelTuning, AtMostSoManyWordsAreKept) {
  std::string cmdline;
  for (size_t i = 0; i < 3 * kMaxTuningWords; ++i)
    cmdline += "hugepages=" + std::to_string(i) + " ";
  const Words words = kernel_tuning_words(cmdline);
  ASSERT_EQ(words.size(), kMaxTuningWords);
  EXPECT_EQ(words.front(), "hugepages=0");
  EXPECT_EQ(words.back(), "hugepages=" + std::to_string(kMaxTuningWords - 1));
}

TEST(KernelTuning, APeersWordIsOneTheParserCouldHaveSaid) {
  for (const char* word : {"idle=poll", "nosmt", "isolcpus=managed_irq,2-5", "idle=?"})
    EXPECT_TRUE(is_kernel_tuning_word(word)) << word;
  for (const char* word : {"", "quiet", "idle=\x1b", "idle=a b", "root=/dev/vda", "x=?", "=poll"})
    EXPECT_FALSE(is_kernel_tuning_word(word)) << word;
  EXPECT_FALSE(is_kernel_tuning_word("idle=" + std::string(kMaxTuningWordLength, 'p')));
}

TEST(KernelTuning, TheContextAndTheBannerSayTheWords) {
  const TimingEnvironment plain = parse_timing_environment("root=/dev/vda quiet");
  EXPECT_EQ(timing_facts(plain)["kernel_tuning"], nlohmann::json::array());
  EXPECT_EQ(plain.describe(), "real time");
  const TimingEnvironment tuned = parse_timing_environment(
      "idle=poll rdmabench.timing=icount rdmabench.icount_shift=3 rdmabench.qemu=7.2 nosmt");
  EXPECT_EQ(timing_facts(tuned)["kernel_tuning"], (nlohmann::json{"idle=poll", "nosmt"}));
  EXPECT_TRUE(tuned.describe().ends_with("; kernel command line: idle=poll nosmt"))
      << tuned.describe();
}

// The longest tuning a kernel can say still fits the hello its server sends.
TEST(KernelTuning, AServersHelloCarriesItsLongestTuning) {
  std::string cmdline =
      "rdmabench.timing=icount rdmabench.icount_shift=10 rdmabench.qemu=" + std::string(64, '9');
  for (size_t i = 0; i < kMaxTuningWords; ++i)
    cmdline += " cpufreq.default_governor=" + std::string(kMaxTuningWordLength - 25, 'p');
  const TimingEnvironment env = parse_timing_environment(cmdline);
  ASSERT_EQ(env.kernel_tuning.size(), kMaxTuningWords);
  ASSERT_EQ(env.kernel_tuning.front().size(), kMaxTuningWordLength);
  const ServerDetails said{.version = "v",
                           .hostname = "h",
                           .kernel = "k",
                           .rdma_core = "r",
                           .timing = env.describe(),
                           .kernel_tuning = env.kernel_tuning};
  const ServerDetails read = read_server_hello(server_hello_message(said));
  EXPECT_EQ(read.timing, env.describe());
  EXPECT_EQ(read.kernel_tuning, env.kernel_tuning);
}
