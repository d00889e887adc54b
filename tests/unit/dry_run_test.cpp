// Issue 64, deliverable 3: the plan before the run. `--dry-run` lists what run (and study), search
// and mesh would do from the one parsed request, touching nothing; the bare run's note is made
// from the same plan (it said "5000 messages each" whatever --iters or --duration said).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/run_profile.h"
#include "cli/search_dimensions.h"
#include "cli/search_preview.h"
#include "core/byte_units.h"
#include "core/time_text.h"
#include "mesh/mesh_preview.h"
#include "parsed_commands.h"
#include "runner/suite_preview.h"

using namespace rdmabench;

namespace dry_run_test {

using rdmabench::testing::parsed_mesh;
using rdmabench::testing::parsed_run;
using rdmabench::testing::parsed_search;

bool has(const std::string& text, const std::string& words) {
  return text.find(words) != std::string::npos;
}

std::string preview_of(const std::vector<std::string>& args) {
  const RunPlan plan = parsed_run(args);
  return suite_preview(plan.suite, google_benchmark_flags(plan.benchmark_args));
}

}  // namespace dry_run_test

using namespace dry_run_test;

TEST(DryRun, SizesAndTimesReadAsTheOptionsTakeThem) {
  EXPECT_EQ(size_text(2), "2 B");
  EXPECT_EQ(size_text(4096), "4 KiB");
  EXPECT_EQ(size_text(1500), "1500 B");
  EXPECT_EQ(size_text(8u << 20), "8 MiB");
  EXPECT_EQ(estimate_size_text(4000), "3.91 KiB");
  EXPECT_EQ(estimate_time_text(0.0836), "83.6 ms");
  EXPECT_EQ(estimate_time_text(642), "10.7 min");
  EXPECT_EQ(estimate_time_text(0), "0 s");
}

TEST(DryRun, GoogleBenchmarkFlagsAreReadAsItReadsThem) {
  EXPECT_TRUE(google_benchmark_flags({"--benchmark_list_tests"}).list_tests);
  EXPECT_TRUE(google_benchmark_flags({"--benchmark_list_tests=true"}).list_tests);
  EXPECT_TRUE(google_benchmark_flags({"--benchmark_list_tests=1"}).list_tests);
  EXPECT_FALSE(google_benchmark_flags({"--benchmark_list_tests=false"}).list_tests);
  EXPECT_FALSE(google_benchmark_flags({"--benchmark_list_tests=0"}).list_tests);
  EXPECT_FALSE(google_benchmark_flags({"--benchmark_list_tests=no"}).list_tests);
  const GoogleBenchmarkFlags flags =
      google_benchmark_flags({"--benchmark_filter=^a", "--benchmark_filter=^b",
                              "--benchmark_min_time=2", "--benchmark_repetitions=3"});
  EXPECT_EQ(flags.filter, "^b");  // the last one, as Google Benchmark takes it
  EXPECT_DOUBLE_EQ(flags.min_time_s, 2);
  EXPECT_EQ(flags.repetitions, 3u);
  EXPECT_FALSE(google_benchmark_flags({"--benchmark_min_time=100x"}).min_time_known);
}

TEST(DryRun, TheBareRunsNoteSaysTheLengthGiven) {
  const RunPlan by_iters = parsed_run({"--iters", "100"});
  EXPECT_EQ(suite_summary(by_iters.suite),
            "write bw and lat, busy CQ, 2 B, 4 KiB and 64 KiB, 100 messages each");
  const RunPlan timed = parsed_run({"--duration", "1m"});
  EXPECT_TRUE(has(suite_summary(timed.suite), "a 1m timed window (500ms margins) each"))
      << suite_summary(timed.suite);
  EXPECT_TRUE(has(suite_summary(parsed_run({}).suite), "5000 messages each"));
  // over ud the quick profile's pattern is send, and the note says so
  EXPECT_TRUE(has(suite_summary(parsed_run({"--transport", "ud"}).suite), "send bw and lat"));
}

TEST(DryRun, RunListsWhatItWouldRegisterWithItsLengthAndAnEstimate) {
  const std::string text = preview_of({"--pattern", "write", "--mode", "bw", "--cq", "busy,event",
                                       "--sizes", "4K", "--duration", "2s", "--margin", "1s"});
  EXPECT_TRUE(has(text, "2 benchmarks against h port 18515")) << text;
  EXPECT_TRUE(has(text, "  write/bw/busy/4096/iterations:1/manual_time\n")) << text;
  EXPECT_TRUE(has(text, "  write/bw/event/4096/iterations:1/manual_time\n")) << text;
  EXPECT_TRUE(has(text, "each: a 2s timed window (1s margins)")) << text;
  EXPECT_TRUE(has(text, "estimate: at least 8 s")) << text;  // two windows of 2 s, 1 s each side
}

TEST(DryRun, ARunByItersGivesItsPayloadAndPacedRatesTheirTime) {
  const std::string text = preview_of({"--pattern", "write", "--mode", "bw", "--cq", "busy",
                                       "--sizes", "64K", "--iters", "1000", "--rate", "100"});
  EXPECT_TRUE(has(text, "each: 1000 messages a QP")) << text;
  // 1000 messages at 100 a second take 10 s at least, and carry 62.5 MiB
  EXPECT_TRUE(has(text, "at least 10 s, plus the time the payload takes (62.5 MiB")) << text;
}

TEST(DryRun, TheFilterSelectsAsTheRunWould) {
  const std::string text = preview_of({"--pattern", "write,read", "--mode", "bw", "--cq", "busy",
                                       "--sizes", "4K", "--benchmark_filter=^read/"});
  EXPECT_TRUE(has(text, "1 benchmark (of 2; --benchmark_filter selects these)")) << text;
  EXPECT_FALSE(has(text, "write/bw")) << text;
  EXPECT_TRUE(has(text, "Google Benchmark's min_time, 500 ms")) << text;
}

TEST(DryRun, SearchSaysItsSpaceLengthAndBudget) {
  const SearchRequest r = parsed_search({"--budget", "10m", "--duration", "1s", "--margin", "0",
                                         "--repetitions", "2", "--state", "/nonexistent/s.json"});
  const SearchSpace space = restrict_space(search_dimensions(), "pattern=write sizes=4K");
  const std::string text = search_preview(space, r);
  EXPECT_TRUE(has(text, "each point: 2 timed runs of 1s")) << text;
  EXPECT_TRUE(has(text, "state: /nonexistent/s.json (new)")) << text;
  // 70 % of 10 minutes is 420 s: 210 points of 2 s
  EXPECT_TRUE(has(text, "10m at most (--budget); its searching share, 7m, holds at most 210"))
      << text;
}

TEST(DryRun, MeshSaysItsRoundsForTheRanksGiven) {
  const std::string pairs = mesh_preview(parsed_mesh({"--mode", "bw"}), 8);
  EXPECT_TRUE(has(pairs, "shift, 7 rounds of 8 pairs at once")) << pairs;
  EXPECT_TRUE(has(pairs, "1000 messages a pair (62.5 MiB)")) << pairs;
  const std::string isolated = mesh_preview(parsed_mesh({"--schedule", "isolated"}), 4);
  EXPECT_TRUE(has(isolated, "isolated, 12 rounds of 1 pair at once")) << isolated;
  const std::string ring =
      mesh_preview(parsed_mesh({"--traffic", "ring", "--duration", "1s", "--margin", "0"}), 4);
  EXPECT_TRUE(has(ring, "ring, fan 1: 2 rounds")) << ring;
  EXPECT_TRUE(has(ring, "estimate: at least 2 s")) << ring;
}

// --load: the same load over every QP count, each QP taking its share; a load a count does
// not divide, and --load beside --rate, are refused.
TEST(DryRun, ALoadIsSplitOverEachQpCount) {
  const std::string text =
      preview_of({"--pattern", "send", "--mode", "lat", "--cq", "client=busy,server=event",
                  "--sizes", "2", "--qps", "1,16,64", "--load", "0,1280", "--duration", "1"});
  for (const char* row : {"send/lat/client=busy,server=event/2/iterations:1",
                          "send/lat/client=busy,server=event/2/qps:16/iterations:1",
                          "send/lat/client=busy,server=event/2/rate:1280/iterations:1",
                          "send/lat/client=busy,server=event/2/rate:80/qps:16/iterations:1",
                          "send/lat/client=busy,server=event/2/rate:20/qps:64/iterations:1"})
    EXPECT_TRUE(has(text, row)) << row << "\n" << text;
  const auto refusal = [](const std::vector<std::string>& args) {
    try {
      parsed_run(args);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_TRUE(has(refusal({"--mode", "lat", "--qps", "1,16,64", "--load", "1000"}),
                  "--load 1000 over --qps 16 is not a whole rate a QP"));
  EXPECT_TRUE(has(refusal({"--mode", "lat", "--load", "100", "--rate", "100"}), "give one"));
}
