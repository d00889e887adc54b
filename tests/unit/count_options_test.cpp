// Issue 64: every count option of run, mesh and search reads its value through the one parser of
// counts (core/count_text.h: 5000, 10k, 1.5M), and every fraction or ratio through one parser
// of plain decimals; anything else is a usage error naming the option and what it takes. Before,
// --iters took 10k while --tx-depth refused it ("not a value --tx-depth takes"), cxxopts' counts
// took 0x10 as 16, and its decimals took "0.8abc" as 0.8.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parsed_commands.h"

using namespace rdmabench;

namespace count_options_test {

using rdmabench::testing::parsed_mesh;
using rdmabench::testing::parsed_run;
using rdmabench::testing::parsed_search;
using rdmabench::testing::refusal_of;

const auto run_words = [](const std::vector<std::string>& a) { return parsed_run(a); };
const auto mesh_words = [](const std::vector<std::string>& a) { return parsed_mesh(a); };
const auto search_words = [](const std::vector<std::string>& a) { return parsed_search(a); };

bool says(const std::string& refused, const std::string& words) {
  return refused.find(words) != std::string::npos;
}

}  // namespace count_options_test

using namespace count_options_test;

TEST(CountOptions, RunTakesEveryCountWithItsMultiplier) {
  const TestSpec base =
      parsed_run({"--tx-depth", "1k", "--rx-depth", "2k", "--signal-every", "1k", "--qps", "4",
                  "--threads", "4", "--poll-batch", "16", "--outs", "8"})
          .suite.matrix.base;
  EXPECT_EQ(base.tx_depth, 1000u);
  EXPECT_EQ(base.rx_depth, 2000u);
  EXPECT_EQ(base.signal_every, 1000u);
  EXPECT_EQ(base.poll_batch, 16u);
  EXPECT_EQ(base.outs, 8u);
  EXPECT_EQ(parsed_run({"--qps", "4", "--threads", "4"}).suite.matrix.threads, 4u);
}

TEST(CountOptions, RunRefusesWhatIsNotACountAsItsOtherCountsDo) {
  for (const char* option :
       {"--tx-depth", "--rx-depth", "--signal-every", "--poll-batch", "--threads", "--outs"}) {
    for (const char* bad : {"0x10", "1.5", "-1", "1e3", "8abc"}) {
      const std::string said = refusal_of(run_words, {option, bad});
      EXPECT_TRUE(says(said, std::string(option) + " '" + bad + "': give a count from")) << said;
      EXPECT_TRUE(says(said, "(5000, 10k, 1.5M or 1G")) << said;
    }
  }
}

TEST(CountOptions, RunNamesEachCountsRange) {
  EXPECT_TRUE(says(refusal_of(run_words, {"--threads", "65"}),
                   "--threads '65': give a count from 1 to 64"));
  EXPECT_TRUE(says(refusal_of(run_words, {"--poll-batch", "0"}),
                   "--poll-batch '0': give a count from 1 to 64"));
  EXPECT_TRUE(
      says(refusal_of(run_words, {"--tx-depth", "5G"}), "--tx-depth '5G': give a count from 1 to"));
}

TEST(CountOptions, MeshTakesCountsAndDecimalsAsRunDoes) {
  const MeshRequest job =
      parsed_mesh({"--mode", "bw", "--tx-depth", "1k", "--streams", "4", "--repetitions", "3",
                   "--min-fraction", "0.75", "--max-resends", ".5"});
  EXPECT_EQ(job.specs.front().tx_depth, 1000u);
  EXPECT_EQ(job.specs.front().qps, 4u);
  EXPECT_EQ(job.repetitions, 3u);
  EXPECT_DOUBLE_EQ(job.judge.min_fraction, 0.75);
  EXPECT_DOUBLE_EQ(job.judge.max_resends, 0.5);
  EXPECT_EQ(parsed_mesh({"--traffic", "incast", "--fan", "8"}).fan, 8);
}

TEST(CountOptions, MeshRefusesADecimalWithSomethingAfterIt) {
  EXPECT_TRUE(says(refusal_of(mesh_words, {"--min-fraction", "0.8abc"}),
                   "--min-fraction '0.8abc': give a number from 0 to 1"));
  EXPECT_TRUE(
      says(refusal_of(mesh_words, {"--min-fraction", "0"}), "--min-fraction must be above 0"));
  EXPECT_TRUE(says(refusal_of(mesh_words, {"--max-resends", "1e-2"}),
                   "--max-resends '1e-2': give a number"));
  EXPECT_TRUE(
      says(refusal_of(mesh_words, {"--repetitions", "0x2"}), "--repetitions '0x2': give a count"));
  EXPECT_TRUE(says(refusal_of(mesh_words, {"--streams", "65"}),
                   "--streams '65': give a count from 1 to 64"));
}

TEST(CountOptions, SearchTakesItsRepetitionsAndEffectAlike) {
  const SearchRequest r = parsed_search({"--repetitions", "5", "--min-effect", "2.5"});
  EXPECT_EQ(r.repetitions, 5u);
  EXPECT_DOUBLE_EQ(r.min_effect, 0.025);
  EXPECT_TRUE(says(refusal_of(search_words, {"--min-effect", "2abc"}),
                   "--min-effect '2abc': give a number from 0 to 100"));
  EXPECT_TRUE(says(refusal_of(search_words, {"--repetitions", "1"}),
                   "--repetitions '1': give a count from 2 to 20"));
}
