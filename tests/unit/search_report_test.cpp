// rdmabench search's files: the state file resumes a search exactly (a resumed search measures
// nothing it had measured, and finds what the whole one found), a state file of another space,
// other settings or a damaged one is refused with kInvalidFile, and the report carries each
// finding's rule, options and commands.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "core/error.h"
#include "search/line_walk.h"
#include "search/report_replay.h"
#include "search/search_report.h"
#include "search/search_run.h"
#include "search/search_state.h"
#include "simulated_target.h"

namespace rdmabench {
namespace {

using testing::simulated_space;
using testing::SimulatedTarget;

const nlohmann::json kSettings = {{"repetitions", 3}};

TEST(SearchState, AResumedSearchMeasuresNothingTwiceAndFindsTheSame) {
  const SearchSpace space = simulated_space();
  SimulatedTarget whole_target({.bandwidth_cliff = true});
  MeasuredPoints whole(whole_target, 3, 500);
  const SearchResult all = run_search(space, registered_rules(), whole, SearchMethod::kGuided, 1);

  SimulatedTarget first_target({.bandwidth_cliff = true});  // stopped at a fifth of the budget
  MeasuredPoints first(first_target, 3, 100);
  run_search(space, registered_rules(), first, SearchMethod::kGuided, 1);
  const nlohmann::json state = search_state_json(space, first, kSettings);

  SimulatedTarget second_target({.bandwidth_cliff = true});
  MeasuredPoints second(second_target, 3, 500);
  restore_search_state(nlohmann::json::parse(state.dump()), space, kSettings, second);
  EXPECT_EQ(second.all().size(), first.all().size());
  EXPECT_DOUBLE_EQ(second.spent(), first.spent());
  const SearchResult resumed =
      run_search(space, registered_rules(), second, SearchMethod::kGuided, 1);
  ASSERT_EQ(resumed.findings.size(), all.findings.size());
  EXPECT_EQ(resumed.findings[0].shown.key(), all.findings[0].shown.key());
  for (const auto& [key, point] : first.all()) EXPECT_TRUE(second.has(point.first));
}

void expect_refused(const nlohmann::json& state, const SearchSpace& space,
                    const nlohmann::json& settings, const std::string& why) {
  SimulatedTarget target({});
  MeasuredPoints measured(target, 3, 100);
  try {
    restore_search_state(state, space, settings, measured);
    ADD_FAILURE() << why;
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kInvalidFile) << why;
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
  }
}

TEST(SearchState, AStateOfAnotherSearchOrADamagedOneIsRefused) {
  const SearchSpace space = simulated_space();
  SimulatedTarget target({});
  MeasuredPoints measured(target, 3, 20);
  run_search(space, registered_rules(), measured, SearchMethod::kGuided, 1);
  const nlohmann::json good = search_state_json(space, measured, kSettings);
  expect_refused(nlohmann::json::array(), space, kSettings, "not a rdmabench-search-state/1");
  expect_refused(good, restrict_space(space, "qps=1:4"), kSettings, "another space");
  expect_refused(good, space, {{"repetitions", 5}}, "other settings");
  nlohmann::json bad = good;
  bad["points"][0]["point"]["qps"] = "3";
  expect_refused(bad, space, kSettings, "outside the search's space");
  bad = good;
  bad["points"][0]["runs"][0]["bytes_per_second"] = "fast";
  expect_refused(bad, space, kSettings, "is not a number");
  bad = good;
  bad["spent_s"] = -1;
  expect_refused(bad, space, kSettings, "no points or no seconds spent");
  // Fields of the wrong type are refused as the rest are, not thrown as JSON's own errors.
  bad = good;
  bad["schema"] = 5;
  expect_refused(bad, space, kSettings, "not a rdmabench-search-state/1");
  bad = good;
  bad["points"][0]["error"] = 7;
  expect_refused(bad, space, kSettings, "a point's error is not text");
  bad = good;
  bad["points"][0]["error"] = "refused";
  bad["points"][0]["exit_code"] = "two";
  expect_refused(bad, space, kSettings, "a point's exit code is not one of rdmabench's");
}

TEST(SearchReport, AFindingCarriesItsRuleOptionsAndCommands) {
  const SearchSpace space = simulated_space();
  SimulatedTarget target({.qp_drop = true});
  MeasuredPoints measured(target, 3, 500);
  const SearchResult r = run_search(space, registered_rules(), measured, SearchMethod::kGuided, 1);
  const SearchReportContext context{"rdmabench run h --cm oob", {{"seed", 1}}, 500, 10};
  const nlohmann::json j = search_report_json(space, r, context, measured);
  EXPECT_EQ(j["schema"], kSearchReportSchema);
  EXPECT_EQ(j["pairs"]["total"], 30);
  EXPECT_EQ(j["pairs"]["on_lines"], r.pairs_covered);
  EXPECT_GT(r.pairs_covered, 0u);
  EXPECT_EQ(j["pairs"]["cover_rows"], r.cover_rows);
  ASSERT_EQ(j["findings"].size(), 1u);
  const nlohmann::json& f = j["findings"][0];
  EXPECT_EQ(f["rule"], "bandwidth-falls-with-qps");
  EXPECT_EQ(f["options"], (nlohmann::json{{"pattern", "send"}}));
  EXPECT_EQ(f["low"]["command"], "rdmabench run h --cm oob --pattern send --qps 4");
  EXPECT_EQ(f["high"]["command"], "rdmabench run h --cm oob --pattern send --qps 8");
  EXPECT_TRUE(f["replayed"].get<bool>());
  EXPECT_GT(f["low"]["band"]["median"].get<double>(), f["high"]["band"]["median"].get<double>());
  // Its line: the measured QP counts through it, in order, the two points among them.
  std::vector<std::string> along;
  for (const auto& p : f["line"]) along.push_back(p["value"]);
  EXPECT_EQ(along, (std::vector<std::string>{"1", "2", "4", "8", "16"}));
}

TEST(SearchReport, ACandidateNotConfirmedIsCountedWithWhyAndNotAFinding) {
  const SearchSpace space = simulated_space();
  SimulatedTarget target({.one_off_at_16_qps = true});
  MeasuredPoints measured(target, 3, 500);
  const SearchResult r = run_search(space, registered_rules(), measured, SearchMethod::kGuided, 1);
  const SearchReportContext context{"rdmabench run h", {}, 500, 10};
  const nlohmann::json j = search_report_json(space, r, context, measured);
  EXPECT_TRUE(j["findings"].empty());
  ASSERT_EQ(j["unconfirmed"].size(), r.unconfirmed.size());
  ASSERT_FALSE(j["unconfirmed"].empty());
  const nlohmann::json& u = j["unconfirmed"][0];
  EXPECT_EQ(u["rule"], "bandwidth-falls-with-qps");
  EXPECT_EQ(u["why"], "not shown again");
  EXPECT_EQ(u["high"]["command"], "rdmabench run h --qps 16");
  // First 40 % low, then within the noise of 8 QPs.
  EXPECT_LT(u["high"]["band"]["median"].get<double>(),
            0.7 * u["low"]["band"]["median"].get<double>());
  EXPECT_GT(u["high"]["again"]["median"].get<double>(),
            0.9 * u["low"]["again"]["median"].get<double>());
  std::ostringstream text;
  print_search_report(text, space, r, context);
  EXPECT_NE(text.str().find("0 findings, " + std::to_string(r.unconfirmed.size()) +
                            " candidates not confirmed"),
            std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("option pairs on measured lines: " + std::to_string(r.pairs_covered) +
                            " of 30"),
            std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("bandwidth-falls-with-qps: --qps 8 -> --qps 16: not shown again"),
            std::string::npos)
      << text.str();
}

TEST(SearchReport, SaysHowManyWindowsCountedTooFewToResolveTheSmallestEffect) {
  // The slow bursty link (simulated_target.h): 0.5 s windows of a few bursts, or none.
  const SearchSpace space = simulated_space();
  SimulatedTarget target({.slow_bursty_link = true});
  MeasuredPoints measured(target, 3, 500);
  const SearchResult r = run_search(space, registered_rules(), measured, SearchMethod::kGuided, 1);
  // Every bw point ran; each counted its window; at 2 % nearly all are coarse, some have none.
  size_t bw = 0;
  for (const auto& [key, point] : measured.all()) bw += point.first.at("mode") == "bw";
  EXPECT_EQ(r.windows.counted, bw);
  EXPECT_GT(r.windows.coarse, bw / 2);
  EXPECT_GT(r.windows.no_rate, 0u);
  EXPECT_LT(r.windows.no_rate, r.windows.coarse);
  const nlohmann::json j = search_report_json(space, r, {"rdmabench run h", {}, 500, 10}, measured);
  EXPECT_EQ(j["windows"]["coarse"], r.windows.coarse);
  EXPECT_EQ(j["windows"]["no_rate"], r.windows.no_rate);
  std::ostringstream text;
  print_search_report(text, space, r, {"rdmabench run h", {}, 500, 10});
  EXPECT_NE(
      text.str().find("windows: " + std::to_string(r.windows.coarse) + " of " + std::to_string(bw) +
                      " points a rate rule judges counted too few messages to resolve 2 %"),
      std::string::npos)
      << text.str();
  // On the ordinary simulated link, windows of thousands of messages: fewer coarse.
  SimulatedTarget fast({});
  MeasuredPoints fast_measured(fast, 3, 500);
  const SearchResult f =
      run_search(space, registered_rules(), fast_measured, SearchMethod::kGuided, 1);
  EXPECT_LT(f.windows.coarse, r.windows.coarse);
}

TEST(SearchReport, ACommandCarriesTheTimedWindowEveryPointRanFor) {
  const SearchSpace space = simulated_space();
  const SearchReportContext context{
      "rdmabench run h --cm oob", {}, 1, 1, RunLength{0, kPointDurationNs, kPointMarginNs}};
  for (const char* size : {"2", "64K", "1M"})
    EXPECT_EQ(point_command(space, context, with(space.base(), "sizes", size)),
              std::string("rdmabench run h --cm oob --duration 0.5 --margin 0.1") +
                  (size == std::string("64K") ? "" : std::string(" --sizes ") + size));
  EXPECT_EQ(point_command(space, {"run", {}, 1, 1, RunLength{0, 2'000'000'000, 0}}, space.base()),
            "run --duration 2");
}

TEST(SearchReport, ACommandCarriesTheMessagesItsPointWasRunWith) {
  // No more than 64 MiB a run: a 1 MiB point runs 64 messages, a 64 KiB one 1024 of 2000,
  // a small one all of them.
  const SearchSpace space = simulated_space();
  SearchReportContext context{"rdmabench run h --cm oob", {}, 1, 1, RunLength{2000, 0, 0}};
  EXPECT_EQ(point_command(space, context, with(space.base(), "sizes", "1M")),
            "rdmabench run h --cm oob --iters 64 --sizes 1M");
  EXPECT_EQ(point_command(space, context, space.base()), "rdmabench run h --cm oob --iters 1024");
  EXPECT_EQ(point_command(space, context, with(space.base(), "sizes", "2K")),
            "rdmabench run h --cm oob --iters 2000 --sizes 2K");
  // --iters is per QP: 16 QPs at 64 KiB run 64 each.
  EXPECT_EQ(point_command(space, context, with(space.base(), "qps", "16")),
            "rdmabench run h --cm oob --iters 64 --qps 16");
  context.length = RunLength{50, 0, 0};
  EXPECT_EQ(point_command(space, context, with(space.base(), "sizes", "1M")),
            "rdmabench run h --cm oob --iters 50 --sizes 1M");
}

TEST(SearchReport, AReplayJudgesEachFindingAgainWhereItRuns) {
  const SearchSpace space = simulated_space();
  SimulatedTarget target({.qp_drop = true, .resends = true});
  MeasuredPoints measured(target, 3, 500);
  const SearchResult r = run_search(space, registered_rules(), measured, SearchMethod::kGuided, 1);
  const nlohmann::json report = nlohmann::json::parse(
      search_report_json(space, r, {"rdmabench run h", {}, 500, 10}, measured).dump());
  ASSERT_EQ(report["findings"].size(), 2u);
  SimulatedTarget same({.qp_drop = true, .resends = true}), clean({});
  const nlohmann::json again = replay_report(report, same, 3, "here");
  const nlohmann::json gone = replay_report(again, clean, 3, "clean");
  for (const auto& f : gone["findings"]) {
    ASSERT_EQ(f["replays"].size(), 2u);
    EXPECT_EQ(f["replays"][0]["label"], "here");
    EXPECT_TRUE(f["replays"][0]["replayed"].get<bool>()) << f["rule"];
    EXPECT_FALSE(f["replays"][1]["replayed"].get<bool>()) << f["rule"];
  }
  EXPECT_EQ(space_from_json(report["space"]).dimensions(), space.dimensions());
  nlohmann::json bad = report;
  bad["findings"][0]["rule"] = "no-such-rule";
  EXPECT_THROW(replay_report(bad, same, 3, "x"), Error);
  bad = report;
  bad["findings"][0]["low"]["point"]["qps"] = "3";
  EXPECT_THROW(replay_report(bad, same, 3, "x"), Error);
  // The smallest effect the search judged by is the replay's too: a fraction, or refused.
  for (const nlohmann::json& v : {nlohmann::json("2%"), nlohmann::json(-0.1), nlohmann::json(7)}) {
    bad = report;
    bad["settings"]["min_effect"] = v;
    EXPECT_THROW(replay_report(bad, same, 3, "x"), Error) << v;
  }
  // A finding whose points a forged report swapped is judged, not read out of bounds.
  bad = report;
  const size_t pair = bad["findings"][0].contains("high") ? 0 : 1;
  ASSERT_TRUE(bad["findings"][pair].contains("high"));
  std::swap(bad["findings"][pair]["low"], bad["findings"][pair]["high"]);
  const nlohmann::json swapped = replay_report(bad, same, 3, "swapped");
  EXPECT_EQ(swapped["findings"][pair]["replays"].size(), 1u);
  for (const char* which : {"low", "high"}) {
    bad = report;
    bad["findings"][0][which] = "here";
    EXPECT_THROW(replay_report(bad, same, 3, "x"), Error) << which;
  }
  // A replay at an effect larger than the drop (40 %) does not show it.
  nlohmann::json strict = report;
  strict["settings"]["min_effect"] = 0.9;
  const nlohmann::json judged = replay_report(strict, same, 3, "strict")["findings"];
  const auto drop = std::find_if(judged.begin(), judged.end(), [](const nlohmann::json& f) {
    return f["rule"] == "bandwidth-falls-with-qps";
  });
  ASSERT_NE(drop, judged.end());
  EXPECT_FALSE((*drop)["replays"][0]["replayed"].get<bool>());
}

TEST(SearchReport, AReplayRunsEachPointAsTheReportsSearchDid) {
  nlohmann::json report = {{"settings", {{"duration_s", 0.5}, {"margin_s", 0.1}}}};
  EXPECT_EQ(report_run_length(report).duration_ns, 500'000'000u);
  EXPECT_EQ(report_run_length(report).margin_ns, 100'000'000u);
  EXPECT_EQ(report_repetitions(report), 3u);  // a report that does not say: the default
  report = {{"settings", {{"iters", 2000}, {"repetitions", 5}}}};
  EXPECT_EQ(report_run_length(report).iterations, 2000u);
  EXPECT_FALSE(report_run_length(report).timed_window());
  EXPECT_EQ(report_repetitions(report), 5u);
  for (const nlohmann::json& settings :
       {nlohmann::json::object(), nlohmann::json{{"duration_s", "long"}},
        nlohmann::json{{"duration_s", 1e9}}, nlohmann::json{{"iters", -1}},
        nlohmann::json{{"duration_s", 0.5}, {"margin_s", nullptr}}}) {
    EXPECT_THROW(report_run_length({{"settings", settings}}), Error) << settings;
  }
  EXPECT_THROW(report_repetitions({{"settings", {{"repetitions", 1e12}}}}), Error);
}

TEST(SearchSpace, AFlagIsGivenBareAndOnlyWhenOn) {
  const SearchSpace space = simulated_space();
  Point p = space.base();
  p["bidir"] = "on";
  EXPECT_EQ(options_text(space, p), "--bidir");
  p["bidir"] = "off";
  EXPECT_EQ(options_text(space, p), "");
}

}  // namespace
}  // namespace rdmabench
