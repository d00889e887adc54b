#include "host/sysfs_file.h"

#include <gtest/gtest.h>

#include <string>

#include "fake_sysfs.h"

using namespace rdmabench;

namespace {

// A file of `bytes` bytes of 'x' and a newline (FakeSysfsTree::write ends every file so), in the
// fake tree.
std::filesystem::path long_file(const rdmabench::testing::FakeSysfsTree& tree, size_t bytes) {
  tree.write("huge", std::string(bytes, 'x'));
  return tree.root() / "huge";
}

}  // namespace

// A sysfs attribute is at most a page; a file that is not one (a fake tree, a FUSE mount over
// /sys) is read no further than a line's room.
TEST(SysfsFile, AFirstLineIsReadNoFurtherThanItsRoom) {
  const rdmabench::testing::FakeSysfsTree tree;
  const std::string line = first_line(long_file(tree, 8u << 20));
  EXPECT_EQ(line.size(), kMaxSysfsLine);
  EXPECT_EQ(first_line(long_file(tree, 12)), std::string(12, 'x'));
  EXPECT_EQ(first_line(tree.root() / "missing"), "");
}

TEST(SysfsFile, AWholeFileIsReadNoFurtherThanItsRoom) {
  const rdmabench::testing::FakeSysfsTree tree;
  EXPECT_EQ(whole_file(long_file(tree, 8u << 20)).size(), kMaxProcFile);
  EXPECT_EQ(whole_file(long_file(tree, 12)), std::string(12, 'x') + "\n");
  EXPECT_EQ(whole_file(tree.root() / "missing"), "");
}
