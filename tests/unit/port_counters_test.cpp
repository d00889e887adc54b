#include "host/port_counters.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

using namespace rdmabench;
namespace fs = std::filesystem;

namespace {

// A sysfs look-alike: rxe0 port 1 with hw_counters (and rxe's "lifespan" setting), and lo.
class FakeSysfs : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("rdmabench-sysfs-" + std::to_string(getpid()));
    fs::remove_all(root_);
    write("class/infiniband/rxe0/ports/1/hw_counters/sent_pkts", "100\n");
    write("class/infiniband/rxe0/ports/1/hw_counters/completer_retry_err", "3\n");
    write("class/infiniband/rxe0/ports/1/hw_counters/lifespan", "10\n");
    write("class/net/lo/statistics/tx_bytes", "5000\n");
    write("class/net/lo/statistics/rx_bytes", "5000\n");
    write("class/net/lo/statistics/multicast", "7\n");
  }
  void TearDown() override { fs::remove_all(root_); }
  void write(const std::string& rel, const std::string& text) {
    fs::create_directories((root_ / rel).parent_path());
    std::ofstream(root_ / rel) << text;
  }
  fs::path root_;
};

TEST_F(FakeSysfs, ReadsDriverAndNetdevCountersButNotSettings) {
  const CounterSnapshot s = PortCounters({"rxe0", 1, "lo"}, root_).read();
  EXPECT_EQ(s.at("hw_sent_pkts"), 100u);
  EXPECT_EQ(s.at("hw_completer_retry_err"), 3u);
  EXPECT_EQ(s.at("netdev_tx_bytes"), 5000u);
  EXPECT_EQ(s.count("hw_lifespan"), 0u);       // a setting, not a count
  EXPECT_EQ(s.count("netdev_multicast"), 0u);  // not one a row keeps
  EXPECT_EQ(s.size(), 4u);
}

TEST_F(FakeSysfs, AMissingDeviceOrPortReadsNothing) {
  EXPECT_TRUE(PortCounters({"mlx5_0", 1, ""}, root_).read().empty());
  EXPECT_EQ(PortCounters({"rxe0", 2, "lo"}, root_).read().size(), 2u);  // lo's alone
}

TEST_F(FakeSysfs, DeltasAreWhatMovedAndNeverNegative) {
  const PortCounters port({"rxe0", 1, "lo"}, root_);
  const CounterSnapshot before = port.read();
  write("class/infiniband/rxe0/ports/1/hw_counters/sent_pkts", "164\n");
  write("class/net/lo/statistics/tx_bytes", "1000\n");  // reset by someone
  const CounterSnapshot d = counter_deltas(before, port.read());
  EXPECT_EQ(d.at("hw_sent_pkts"), 64u);
  EXPECT_EQ(d.at("hw_completer_retry_err"), 0u);
  EXPECT_EQ(d.at("netdev_tx_bytes"), 0u);
}

TEST(PortCounterNames, OnlyPlainLowerCaseNamesOfReasonableLength) {
  EXPECT_TRUE(valid_counter_name("hw_rcvd_rnr_err"));
  EXPECT_FALSE(valid_counter_name(""));
  EXPECT_FALSE(valid_counter_name("hw_Sent"));
  EXPECT_FALSE(valid_counter_name("hw/../x"));
  EXPECT_FALSE(valid_counter_name(std::string(65, 'a')));
}

// The kernel answers hw_counters reads from what it read within the last lifespan: a reading
// waits that out, and a jiffy more, or a short run's deltas read 0.
TEST_F(FakeSysfs, AReadingWaitsOutTheKernelsLifespanOfHwCounters) {
  const PortCounters rxe({"rxe0", 1, "lo"}, root_);
  EXPECT_EQ(rxe.fresh_after(), std::chrono::milliseconds(10 + 10 + 1));
  const auto start = std::chrono::steady_clock::now();
  rxe.read();
  EXPECT_GE(std::chrono::steady_clock::now() - start, rxe.fresh_after());
  // Without hw_counters (no lifespan) there is nothing to wait for.
  EXPECT_EQ(PortCounters({"rxe0", 2, "lo"}, root_).fresh_after(), std::chrono::milliseconds(0));
}

}  // namespace
