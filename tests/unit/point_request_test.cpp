// A search point's typed request (cli/point_request.h) against the command line it stands for:
// for points drawn across the whole space, over either bootstrap, the request is accepted
// exactly when `rdmabench run` takes the options (options_text's words), and then asks for the
// very benchmark run would run, field by field.
#include "cli/point_request.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <sstream>

#include "cli/run_request.h"
#include "cli/search_dimensions.h"
#include "command_line.h"
#include "core/error.h"
#include "parsed_commands.h"
#include "spec/spec_validation.h"

namespace rdmabench {
namespace {

// What run builds from the point's command line: its one benchmark, or why it refuses.
std::variant<TestSpec, std::string> as_run_builds_it(const SearchSpace& space, const Point& p,
                                                     Bootstrap bootstrap) {
  std::vector<std::string> args = {"run", "192.0.2.1", "--cm", to_string(bootstrap)};
  std::istringstream words(options_text(space, p));
  for (std::string w; words >> w;) args.push_back(w);
  testing::CommandLine line(std::move(args));
  try {
    std::optional<RunPlan> plan = parse_run_request(line.argc(), line.argv());
    plan->suite.matrix.base.bootstrap = bootstrap;  // as the search sets the bootstrap it chose
    const std::vector<TestSpec> specs = expand_specs(plan->suite.matrix);
    if (specs.size() != 1) return "benchmarks: " + std::to_string(specs.size());
    validate_spec(specs.front());
    return specs.front();
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage) << e.what();
    return std::string(e.what());
  }
}

Point drawn(const SearchSpace& space, std::mt19937& random) {
  Point p;
  for (const Dimension& d : space.dimensions())
    p[d.option] = d.values[std::uniform_int_distribution<size_t>(0, d.values.size() - 1)(random)];
  return p;
}

// Each point's verdict both ways; returns how many were accepted.
size_t compare(const SearchSpace& space, const std::vector<Point>& points, Bootstrap bootstrap) {
  BenchmarkMatrix base;
  base.base.bootstrap = bootstrap;
  size_t accepted = 0;
  for (const Point& p : points) {
    const auto typed = one_benchmark(request_at(space, p, base));
    const auto parsed = as_run_builds_it(space, p, bootstrap);
    const std::string at = point_key(p) + " over " + to_string(bootstrap);
    EXPECT_EQ(typed.index(), parsed.index())
        << at << ": typed " << (typed.index() ? std::get<std::string>(typed) : "accepted")
        << ", run " << (parsed.index() ? std::get<std::string>(parsed) : "accepted");
    if (typed.index() == 0 && parsed.index() == 0) {
      EXPECT_TRUE(std::get<TestSpec>(typed) == std::get<TestSpec>(parsed))
          << at << ": " << std::get<TestSpec>(typed).name() << " against "
          << std::get<TestSpec>(parsed).name();
      ++accepted;
    }
  }
  return accepted;
}

TEST(PointRequest, EveryPointIsAcceptedAndBuiltAsRunWouldFromItsCommandLine) {
  const SearchSpace space = search_dimensions();
  std::mt19937 random(20261128);
  std::vector<Point> points;
  for (int i = 0; i < 1500; ++i) points.push_back(drawn(space, random));
  // Each value alone at the base, so that every one is among the accepted ones too.
  for (const Dimension& d : space.dimensions())
    for (const std::string& v : d.values) {
      Point p = space.base();
      p[d.option] = v;
      points.push_back(p);
    }
  for (const Bootstrap b : {Bootstrap::kOob, Bootstrap::kRdmaCm}) {
    // Over rdma_cm the search leaves out what only the out-of-band bootstrap sets (--mtu).
    std::vector<std::string> left_out;
    const SearchSpace honoured = honoured_space(space, b, left_out);
    std::vector<Point> honoured_points = points;
    for (Point& p : honoured_points)
      for (const std::string& option : left_out) p.erase(option);
    const size_t accepted = compare(honoured, honoured_points, b);
    EXPECT_GT(accepted, 50u) << to_string(b);  // both verdicts are exercised
    EXPECT_LT(accepted, points.size()) << to_string(b);
  }
}

TEST(PointRequest, OverRdmaCmTheSpaceLeavesOutWhatOnlyTheOutOfBandBootstrapSets) {
  // --mtu was searched over rdma_cm, which ignored it: every point "at" an MTU ran at the path's.
  std::vector<std::string> left_out;
  const SearchSpace honoured = honoured_space(search_dimensions(), Bootstrap::kRdmaCm, left_out);
  EXPECT_EQ(left_out, std::vector<std::string>{"mtu"});
  EXPECT_EQ(honoured.find("mtu"), nullptr);
  EXPECT_NE(honoured.find("qp-timeout"), nullptr);  // rdma_cm sets the ACK timeout as asked
  left_out.clear();
  EXPECT_NE(honoured_space(search_dimensions(), Bootstrap::kOob, left_out).find("mtu"), nullptr);
  EXPECT_TRUE(left_out.empty());
}

// One list says which run options the out-of-band bootstrap alone honours: `run --cm rdmacm`
// refuses each with its reason, and a search over rdma_cm leaves out each it searches (the two
// used to keep a list each).
TEST(PointRequest, EachOobOnlyRunOptionIsRefusedOverRdmaCmAndLeftOutOfItsSearch) {
  const std::map<std::string, std::string> a_value = {{"sl", "1"}, {"mtu", "1024"}};
  std::vector<std::string> left_out;
  (void)honoured_space(search_dimensions(), Bootstrap::kRdmaCm, left_out);
  for (const OobOnlyRunOption& o : oob_only_run_options()) {
    ASSERT_TRUE(a_value.contains(o.option)) << "give --" << o.option << " a value here";
    const std::string refusal =
        testing::refusal_of(testing::parsed_run,
                            {"--cm", "rdmacm", std::string("--") + o.option, a_value.at(o.option)});
    EXPECT_NE(refusal.find(o.why), std::string::npos) << o.option << ": " << refusal;
    const bool searched = search_dimensions().find(o.option) != nullptr;
    EXPECT_EQ(std::ranges::count(left_out, o.option), searched ? 1 : 0) << o.option;
  }
  EXPECT_FALSE(is_oob_only_run_option("qp-timeout"));  // rdma_cm sets the ACK timeout as asked
}

TEST(PointRequest, AValueThatIsNotTheDimensionsIsAnInternalError) {
  EXPECT_THROW(point_setter("no-such-option"), Error);
  BenchmarkMatrix request;
  try {
    point_setter("qps")(request, "many\x1b");
    FAIL() << "took a value no range declares";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kInternal);
    EXPECT_EQ(std::string(e.what()).find('\x1b'), std::string::npos) << "printed as it came";
  }
}

}  // namespace
}  // namespace rdmabench
