// The kernel command line's one splitter: words between any white space the kernel skips, and
// the first value a key is given.
#include "host/kernel_cmdline.h"

#include <gtest/gtest.h>

#include <string_view>
#include <vector>

namespace rdmabench {
namespace {

using Views = std::vector<std::string_view>;

TEST(KernelCmdline, WordsAreSplitAtAnyWhiteSpaceAndKeptInOrder) {
  EXPECT_EQ(kernel_cmdline_words("BOOT_IMAGE=/vmlinuz ro\tidle=poll\vnosmt\r quiet\n"),
            (Views{"BOOT_IMAGE=/vmlinuz", "ro", "idle=poll", "nosmt", "quiet"}));
  EXPECT_EQ(kernel_cmdline_words("  \n"), Views{});
  EXPECT_EQ(kernel_cmdline_words(""), Views{});
}

// As the kernel takes a parameter said twice: the later word wins.
TEST(KernelCmdline, AKeysValueIsItsLastWholeKeysWord) {
  const std::string_view line =
      "rdmabench.timing=other rdmabench.timing_x=no rdmabench.timing rdmabench.timing=icount "
      "rdmabench.timing_x=\n";
  EXPECT_EQ(kernel_cmdline_value(line, "rdmabench.timing"), "icount");
  EXPECT_EQ(kernel_cmdline_value(line, "rdmabench.timing_x"), "");
  EXPECT_EQ(kernel_cmdline_value("a=1 b=2 a=3", "a"), "3");
  EXPECT_EQ(kernel_cmdline_value(line, "rdmabench"), "");
  EXPECT_EQ(kernel_cmdline_value("idle=\fnosmt", "idle"), "");
  EXPECT_EQ(kernel_cmdline_value("a=b=c", "a"), "b=c");
}

}  // namespace
}  // namespace rdmabench
