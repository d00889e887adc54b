// `rdmabench search`'s command line read into its request before anything connects: what it
// takes, and each refusal a usage error (exit 2) that says what was wrong.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/search_request.h"
#include "core/error.h"

using namespace rdmabench;

namespace {

SearchRequest parse(std::vector<std::string> args) {
  args.insert(args.begin(), "search");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return parse_search_request(static_cast<int>(args.size()), argv.data());
}

std::string refusal(const std::vector<std::string>& args) {
  try {
    parse(args);
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "accepted";
  return "";
}

}  // namespace

TEST(SearchRequest, TakesWhatTheOptionsSay) {
  const SearchRequest r =
      parse({"h", "--budget", "20m", "--points", "12", "--repetitions", "4", "--min-effect", "5",
             "--method", "random", "--seed", "7", "--space", "pattern=write,read"});
  EXPECT_EQ(r.target.server.host, "h");
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
  EXPECT_NE(refusal({"h", "--points", "0"}).find("--points must be 1..100000"), std::string::npos);
  EXPECT_NE(refusal({"h", "--points", "100001"}).find("--points"), std::string::npos);
  EXPECT_NE(refusal({"h", "--budget", "5x"}).find("--budget '5x'"), std::string::npos);
  EXPECT_NE(refusal({"h", "--repetitions", "1"}).find("--repetitions must be 2..20"),
            std::string::npos);
  EXPECT_NE(refusal({"h", "--method", "greedy"}).find("--method"), std::string::npos);
  EXPECT_NE(refusal({"h", "--min-effect", "101"}).find("--min-effect"), std::string::npos);
  EXPECT_NE(refusal({"h", "--iters", "10", "--duration", "1"}).find("not both"), std::string::npos);
  EXPECT_NE(refusal({"h", "--space", "pattern=nothing"}), "");
  EXPECT_NE(refusal({"h", "--no-such-option"}).find("--no-such-option"), std::string::npos);
}
