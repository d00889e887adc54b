// Issue 67, deliverable 4: `rdmabench mesh --validate`, as run's: every pair's timed run is a
// checking run, counted as such; a pattern whose target takes no completion is refused before
// MPI or a device is touched.
#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
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

TEST(MeshValidate, WriteBandwidthIsRefusedAsRunRefusesIt) {
  try {
    parsed_mesh({"--pattern", "write", "--mode", "bw", "--validate"});
    FAIL() << "mesh took --validate for write bw";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage);
    EXPECT_NE(std::string(e.what()).find("--validate is set for write bw"), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(
      parsed_mesh({"--pattern", "write", "--mode", "lat", "--validate"}).specs.front().validate);
}
