// --cpus: what run and serve take, and the text the server reports back.
#include "cli/cpus_option.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "core/cpu_ranges.h"
#include "core/error.h"

namespace rdmabench {
namespace {

TEST(CpuList, ListsAndRanges) {
  EXPECT_EQ(parse_cpu_list("0"), std::vector<int>{0});
  if (std::thread::hardware_concurrency() >= 2) {
    EXPECT_EQ(parse_cpu_list("0,1"), (std::vector<int>{0, 1}));
    EXPECT_EQ(parse_cpu_list("0-1"), (std::vector<int>{0, 1}));
  }
  for (const char* bad : {"", "x", "1-0", "99999", "-1", "0,,1"})
    EXPECT_THROW(parse_cpu_list(bad), Error) << bad;
}

TEST(CpuList, TextIsWhatTheServerReports) {
  EXPECT_EQ(cpu_list_text({}), "");
  EXPECT_EQ(cpu_list_text({0}), "0");
  EXPECT_EQ(cpu_list_text({0, 2, 3}), "0,2,3");
  EXPECT_EQ(parse_cpu_list(cpu_list_text(parse_cpu_list("0"))), std::vector<int>{0});
}

}  // namespace
}  // namespace rdmabench
