// Every command's time options read through the one parser of times (core/time_text.h): a
// number alone is seconds, a unit is honoured, and anything else is a usage error that names
// the option and says what it takes. cxxopts' own numbers read "1m" as 1 and "5abc" as 5.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parsed_commands.h"

using namespace rdmabench;
using std::chrono::milliseconds;

using rdmabench::testing::parsed_mesh;
using rdmabench::testing::parsed_run;
using rdmabench::testing::parsed_search;
using rdmabench::testing::refusal_of;

TEST(TimeOptions, RunTakesEachTimeInTheUnitWritten) {
  EXPECT_EQ(parsed_run({"--duration", "1m"}).suite.length.duration_ns, 60'000'000'000u);
  EXPECT_EQ(parsed_run({"--duration", "10ms"}).suite.length.duration_ns, 10'000'000u);
  EXPECT_EQ(parsed_run({"--duration", "2"}).suite.length.duration_ns, 2'000'000'000u);
  EXPECT_EQ(parsed_run({"--duration", "1", "--margin", "250ms"}).suite.length.margin_ns,
            250'000'000u);
  EXPECT_EQ(parsed_run({"--timeout", "1.5m"}).suite.peer.timeout, milliseconds(90'000));
  EXPECT_EQ(parsed_run({"--wait", "30s"}).suite.peer.wait.wait, milliseconds(30'000));
  EXPECT_EQ(parsed_run({"--report-every", "500ms"}).suite.reporting.report_every,
            milliseconds(500));
}

TEST(TimeOptions, RunRefusesWhatIsNotATime) {
  const auto run = [](const std::vector<std::string>& a) { return parsed_run(a); };
  EXPECT_NE(refusal_of(run, {"--timeout", "5abc"}).find("--timeout '5abc': give a time"),
            std::string::npos);
  EXPECT_NE(refusal_of(run, {"--duration", "1", "--margin", "1hour"}).find("--margin '1hour'"),
            std::string::npos);
  EXPECT_NE(refusal_of(run, {"--duration", "5,5"}).find("--duration '5,5'"), std::string::npos);
  EXPECT_NE(refusal_of(run, {"--duration", "1.5ms"}).find("': give it in whole multiples of 1ms"),
            std::string::npos);
  EXPECT_NE(refusal_of(run, {"--wait", "-1"}).find("--wait '-1'"), std::string::npos);
  EXPECT_NE(refusal_of(run, {"--report-every", "50ms"}).find("from 100ms to 1h"),
            std::string::npos);
}

TEST(TimeOptions, MeshAndSearchTakeTheSameTimes) {
  const MeshRequest traffic = parsed_mesh(
      {"--traffic", "ring", "--duration", "1m", "--margin", "2s", "--timeout", "250ms"});
  EXPECT_EQ(traffic.run.length.duration_ns, 60'000'000'000u);
  EXPECT_EQ(traffic.run.length.margin_ns, 2'000'000'000u);
  EXPECT_EQ(traffic.run.timeout, milliseconds(250));
  const SearchRequest search = parsed_search({"--duration", "2s", "--margin", "50ms"});
  EXPECT_EQ(search.target.length.duration_ns, 2'000'000'000u);
  EXPECT_EQ(search.target.length.margin_ns, 50'000'000u);
  EXPECT_EQ(parsed_search({"--budget", "90"}).budget_s, 90);
  const auto mesh = [](const std::vector<std::string>& a) { return parsed_mesh(a); };
  EXPECT_NE(refusal_of(mesh, {"--timeout", "5abc"}).find("--timeout '5abc'"), std::string::npos);
  const auto searching = [](const std::vector<std::string>& a) { return parsed_search(a); };
  EXPECT_NE(refusal_of(searching, {"--duration", "1x"}).find("--duration '1x'"), std::string::npos);
}
