// Issue 67, deliverable 4: `rdmabench mesh --validate`, as run's: every pair's timed run is a
// checking run, counted as such, write bw's too (its target checks each write as it lands).
#include <gtest/gtest.h>

#include <string>

#include "parsed_commands.h"

using namespace rdmabench;
using rdmabench::testing::parsed_mesh;

TEST(MeshValidate, EveryModesBenchmarkChecksItsTimedRun) {
  const MeshRequest job = parsed_mesh({"--pattern", "send", "--mode", "bw,lat", "--validate"});
  ASSERT_EQ(job.specs.size(), 2u);
  for (const TestSpec& spec : job.specs) EXPECT_TRUE(spec.validate) << spec.name();
  for (const TestSpec& spec : parsed_mesh({"--pattern", "send"}).specs)
    EXPECT_FALSE(spec.validate) << spec.name();
}

// Mesh runs rc alone, one way: write bw's target checks its ring as run's does.
TEST(MeshValidate, WriteBandwidthIsTakenAsRunTakesItOverRc) {
  const MeshRequest job = parsed_mesh({"--pattern", "write", "--mode", "bw", "--validate"});
  ASSERT_EQ(job.specs.size(), 1u);
  EXPECT_TRUE(job.specs.front().checks_landed_writes());
  EXPECT_TRUE(
      parsed_mesh({"--pattern", "write", "--mode", "lat", "--validate"}).specs.front().validate);
}
