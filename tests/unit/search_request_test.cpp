// `rdmabench search`'s command line read into its request before anything connects: what it
// takes, and each refusal a usage error (exit 2) that says what was wrong.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cli/search_request.h"
#include "command_line.h"

using namespace rdmabench;

namespace {

SearchRequest parse(std::vector<std::string> args) {
  args.insert(args.begin(), "search");
  rdmabench::testing::CommandLine line(std::move(args));
  return parse_search_request(line.argc(), line.argv());
}

std::string refusal(const std::vector<std::string>& args) {
  return rdmabench::testing::usage_refusal([&] { parse(args); });
}

}  // namespace

TEST(SearchRequest, TakesWhatTheOptionsSay) {
  const SearchRequest r =
      parse({"h", "--budget", "20m", "--points", "12", "--repetitions", "4", "--min-effect", "5",
             "--method", "random", "--seed", "7", "--space", "pattern=write,read"});
  EXPECT_EQ(r.target.server.address.host, "h");
  EXPECT_EQ(r.budget_s, 1200);
  EXPECT_EQ(r.points, 12u);
  EXPECT_EQ(r.repetitions, 4u);
  EXPECT_DOUBLE_EQ(r.min_effect, 0.05);
  EXPECT_EQ(r.method, SearchMethod::kRandom);
  EXPECT_EQ(r.seed, 7u);
  EXPECT_EQ(r.space, "pattern=write,read");
}

TEST(SearchRequest, EachBadValueIsAUsageErrorThatNamesItsOption) {
  EXPECT_NE(refusal({}).find("missing HOST"), std::string::npos);
  EXPECT_NE(refusal({"h", "--points", "0"}).find("--points '0': give a count from 1 to 100000"),
            std::string::npos);
  EXPECT_NE(refusal({"h", "--points", "100001"}).find("--points"), std::string::npos);
  EXPECT_NE(refusal({"h", "--budget", "5x"}).find("--budget '5x'"), std::string::npos);
  EXPECT_NE(
      refusal({"h", "--repetitions", "1"}).find("--repetitions '1': give a count from 2 to 20"),
      std::string::npos);
  EXPECT_NE(refusal({"h", "--method", "greedy"}).find("--method"), std::string::npos);
  EXPECT_NE(refusal({"h", "--min-effect", "101"}).find("--min-effect"), std::string::npos);
  EXPECT_NE(refusal({"h", "--iters", "10", "--duration", "1"}).find("not both"), std::string::npos);
  EXPECT_NE(refusal({"h", "--space", "pattern=nothing"}), "");
  EXPECT_NE(refusal({"h", "--no-such-option"}).find("--no-such-option"), std::string::npos);
}

// The argv fuzzer's seed of search's options (tests/fuzz/corpus/argv/search-options, its words
// split at NUL bytes) is a command line search takes: the fuzzer starts past every check.
TEST(SearchRequest, TheFuzzersSeedOfSearchsOptionsIsTaken) {
  const std::filesystem::path file =
      std::filesystem::path(RDMABENCH_FUZZ_CORPUS).parent_path() / "argv" / "search-options";
  std::ifstream in(file, std::ios::binary);
  const std::string seed{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::vector<std::string> words(1);
  for (const char c : seed) {
    if (c == '\0')
      words.emplace_back();
    else
      words.back() += c;
  }
  ASSERT_EQ(words.front(), "search") << file;
  words.erase(words.begin());
  EXPECT_EQ(parse(words).points, 12u);
}
