// The space `rdmabench search` explores (cli/search_dimensions.cpp): every value of every
// dimension is one `rdmabench run` takes as its option, and a fallback that stands for "not
// given" (inline auto, rate unpaced) is never passed on; the fuzzer's seeds of that space.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "cli/run_request.h"
#include "cli/search_dimensions.h"
#include "command_line.h"
#include "core/error.h"
#include "search/measured_points.h"
#include "search/pair_cover.h"
#include "search/report_replay.h"
#include "search/search_state.h"

namespace rdmabench {
namespace {

// Whether run takes the options (a usage error: not; its text kept for the failure).
bool parses(std::vector<std::string> args, std::string& why) {
  args.insert(args.begin(), {"run", "192.0.2.1"});
  testing::CommandLine line(std::move(args));
  try {
    return parse_run_request(line.argc(), line.argv()).has_value();
  } catch (const Error& e) {
    why = e.what();
    return false;
  }
}

// The point's command line (options_text's words).
std::vector<std::string> words(const SearchSpace& space, const Point& p) {
  std::vector<std::string> out;
  std::istringstream in(options_text(space, p));
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

TEST(SearchDimensions, EveryValueIsOneRunTakes) {
  // Each value at the base moved to 8 bytes (a size every pattern takes: atomics), with some
  // pattern (--srq and ud need one that takes receives).
  const SearchSpace space = search_dimensions();
  ASSERT_GE(space.dimensions().size(), 16u);
  Point base = space.base();
  base["sizes"] = "8";
  for (const Dimension& d : space.dimensions())
    for (const std::string& v : d.values) {
      std::string why;
      bool taken = false;
      for (const std::string& pattern : space.find("pattern")->values) {
        Point p = base;
        p["pattern"] = pattern;
        p[d.option] = v;
        taken = taken || parses(words(space, p), why);
      }
      EXPECT_TRUE(taken) << d.option << " " << v << ": " << why;
    }
}

TEST(SearchDimensions, AWordForNotGivenIsItsFallbackAndItsStart) {
  const SearchSpace space = search_dimensions();
  for (const char* option : {"inline", "outs", "rate"}) {
    const Dimension* d = space.find(option);
    ASSERT_NE(d, nullptr) << option;
    EXPECT_FALSE(d->ordered) << option;
    EXPECT_EQ(d->start, d->fallback) << option;
    EXPECT_EQ(options_text(space, space.base()),
              "--pattern write --mode bw --cq busy "
              "--sizes 64K --mtu 4096");
  }
  Point p = space.base();
  p["rate"] = "1000";
  EXPECT_NE(options_text(space, p).find("--rate 1000"), std::string::npos);
  p["rate"] = "unpaced";
  EXPECT_EQ(options_text(space, p).find("--rate"), std::string::npos);
}

TEST(SearchDimensions, StrategiesWithArgumentsAreSearchedAndNamedInASpace) {
  const SearchSpace space = search_dimensions();
  const std::vector<std::string>& cq = space.find("cq")->values;
  EXPECT_NE(std::find(cq.begin(), cq.end(), "hybrid:16"), cq.end());
  EXPECT_NE(std::find(cq.begin(), cq.end(), "moderated:256,256"), cq.end());
  EXPECT_EQ(restrict_space(space, "cq=busy;moderated:16,16").find("cq")->values,
            (std::vector<std::string>{"busy", "moderated:16,16"}));
}

TEST(SearchDimensions, ThePairCoverOfTheWholeSpaceIsFewRowsRunTakes) {
  // The pairs of values of the unordered options; pattern (7) by CQ strategy (10) alone needs
  // 70 rows. Each row chosen value by value against what run takes: at most 7 more (with 9
  // strategies: 64 of 63; built whole and then refused, rows fell back to two values each: 175).
  const SearchSpace space = search_dimensions();
  const size_t least = space.find("pattern")->values.size() * space.find("cq")->values.size();
  std::map<std::string, bool> asked;
  const auto accepts = [&](const Point& p) {
    const auto [it, added] = asked.try_emplace(point_key(p), false);
    std::string why;
    if (added) it->second = parses(words(space, p), why);
    return it->second;
  };
  const PairCover cover = pair_cover(space, accepts);
  EXPECT_EQ(cover.pairs, pair_count(space));
  EXPECT_LE(cover.rows.size(), least + 7);
  EXPECT_EQ(pairs_held(space, cover.rows) + cover.refused, cover.pairs);
  for (const Point& row : cover.rows) EXPECT_TRUE(accepts(row)) << point_key(row);
}

// The argv fuzzer's search seeds (tests/fuzz/corpus/argv): the fuzzer starts from what they
// reach, so they must get past the first checks: a state of today's whole space, restored; a
// report whose findings are replayed.
std::string seed_json(const char* name, std::string_view mode) {
  const std::filesystem::path file =
      std::filesystem::path(RDMABENCH_FUZZ_CORPUS).parent_path() / "argv" / name;
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  const std::string seed = text.str();
  EXPECT_TRUE(seed.starts_with(std::string(mode) + '\0')) << file;
  return seed.substr(std::min(seed.size(), mode.size() + 1));
}

class Answering final : public SearchTarget {
 public:
  Observation measure(const Point&, unsigned repetitions) override {
    Observation o;
    for (unsigned r = 0; r < repetitions; ++r) o.runs.push_back({{"bytes_per_second", 1.0 + r}});
    return o;
  }
  double seconds_spent() const override { return 0; }
};

TEST(SearchSeeds, TheFuzzersSearchSeedsReachPastTheFirstChecks) {
  Answering target;
  MeasuredPoints measured(target, 3, 100);
  restore_search_state(nlohmann::json::parse(seed_json("search-state", "@search-state")),
                       search_dimensions(), {{"repetitions", 3}}, measured);
  EXPECT_EQ(measured.all().size(), 3u);
  const nlohmann::json report = nlohmann::json::parse(seed_json("search-report", "@search-report"));
  EXPECT_EQ(report_run_length(report).duration_ns, 500'000'000u);
  const nlohmann::json replayed = replay_report(report, target, report_repetitions(report), "x");
  ASSERT_EQ(replayed["findings"].size(), 4u);
  for (const auto& f : replayed["findings"]) EXPECT_EQ(f["replays"].size(), 1u) << f["rule"];
}

}  // namespace
}  // namespace rdmabench

namespace rdmabench {
namespace {

// What search explores passes, restricted or whole; another option or value is the report's
// fault (kInvalidFile), named printably.
TEST(SearchDimensions, AReportsSpaceHoldsOnlyWhatSearchExplores) {
  EXPECT_NO_THROW(check_searched(search_dimensions(), "search report"));
  EXPECT_NO_THROW(check_searched(restrict_space(search_dimensions(), "qps=1:4"), "search report"));
  const auto error_of = [](std::vector<Dimension> dims) {
    try {
      check_searched(SearchSpace(std::move(dims)), "search report");
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), ExitCode::kInvalidFile);
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of({{"out", {"/tmp/x"}, "", "", false}}).find("--out, which"), std::string::npos);
  const std::string bad_value = error_of({{"qps", {"1", "9\x1b"}, "1", "1", true}});
  EXPECT_NE(bad_value.find("--qps value '9\\x1b'"), std::string::npos) << bad_value;
}

}  // namespace
}  // namespace rdmabench
