// One bounded reader (core/bounded_read.h) for every file rdmabench reads whole: sysfs and /proc,
// --key, --topology and --pairs, --limits-file, search's state and report files.
#include "core/bounded_read.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <future>
#include <limits>
#include <string>
#include <thread>

#include "core/bounded_json.h"
#include "core/error.h"
#include "fake_sysfs.h"
#include "host/sysfs_file.h"

using namespace rdmabench;

TEST(BoundedRead, AFileIsReadToItsEndOrTheLimit) {
  const rdmabench::testing::FakeSysfsTree tree;
  tree.write("small", "0123456789");
  const std::string path = (tree.root() / "small").string();
  EXPECT_EQ(read_file_up_to(path, 100), "0123456789\n");
  EXPECT_EQ(read_file_up_to(path, 4), "0123");
  EXPECT_EQ(read_file_up_to(path, 0), "");
}

TEST(BoundedRead, TheLimitIsABoundNotAnAllocation) {
  // search's report files may be 1 GiB: a small one read under that bound took 3.6 s (the whole
  // bound zero-filled), past a host test's 30 s beside the CI's guests. A bound no memory could
  // hold reads a small file all the same.
  const rdmabench::testing::FakeSysfsTree tree;
  tree.write("small", "0123456789");
  const std::string path = (tree.root() / "small").string();
  EXPECT_EQ(read_file_up_to(path, std::numeric_limits<std::size_t>::max() / 2), "0123456789\n");
  std::string big(300'000, 'x');
  tree.write("big", big);
  EXPECT_EQ(read_file_up_to((tree.root() / "big").string(), std::size_t{1} << 40), big + "\n");
  EXPECT_EQ(read_file_up_to((tree.root() / "big").string(), 200'001)->size(), 200'001u);
}

TEST(BoundedRead, WhatCannotBeReadIsNothingWithItsErrno) {
  const rdmabench::testing::FakeSysfsTree tree;
  tree.write("present", "1");  // the tree's folder is made with its first file
  errno = 0;
  EXPECT_EQ(read_file_up_to((tree.root() / "missing").string(), 10), std::nullopt);
  EXPECT_EQ(errno, ENOENT);
  EXPECT_EQ(read_file_up_to(tree.root().string(), 10), std::nullopt);  // a directory
  EXPECT_EQ(errno, EISDIR);
}

// Before, the sysfs reader (and --topology's, on rank 0) opened a FIFO with no writer and waited
// for one without end; and a --limits-file FIFO was "cannot read it (...)" by its size alone.
TEST(BoundedRead, AFifoWithoutAWriterReadsAsEmptyAtOnce) {
  const rdmabench::testing::FakeSysfsTree tree;
  tree.write("present", "1");
  const std::string fifo = (tree.root() / "fifo").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  auto read = std::async(std::launch::async, [&] { return first_line(fifo); });
  if (read.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
    const int writer = open(fifo.c_str(), O_WRONLY | O_NONBLOCK);  // lets the reader go
    if (writer >= 0) close(writer);
    FAIL() << "first_line of a FIFO without a writer still waits after 5 s";
  }
  EXPECT_EQ(read.get(), "");
  EXPECT_THROW(read_bounded_json_file(fifo, {.max_bytes = 1024, .max_depth = 4}, "--limits-file"),
               Error);  // empty: not JSON
}
