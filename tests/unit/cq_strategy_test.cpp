#include "cq/strategy.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.h"

using namespace rdmabench;

namespace {
std::string strategy_usage_error(const std::string& text) {
  try {
    parse_cq_choices(text);
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage) << text;
    return e.what();
  }
  return "";
}
}  // namespace

TEST(CqStrategy, EveryRegisteredStrategyParsesFromItsUsage) {
  std::vector<std::string> names;
  for (const StrategyInfo& info : registered_strategies()) {
    names.emplace_back(info.name);
    // Each parses from its usage with every argument at 1 (1 is within every limit).
    std::string text(info.name);
    for (unsigned i = 0; i < info.arguments; ++i) text += i == 0 ? ":1" : ",1";
    EXPECT_EQ(parse_cq_strategy(text).name, info.name);
  }
  for (const char* required : {"busy", "event", "epoll", "hybrid", "adaptive", "moderated"})
    EXPECT_NE(std::find(names.begin(), names.end(), required), names.end()) << required;
  EXPECT_EQ(parse_cq_strategy("hybrid:20").arguments, std::vector<uint32_t>{20});
  EXPECT_EQ(parse_cq_strategy("moderated:16,50").arguments, (std::vector<uint32_t>{16, 50}));
  EXPECT_EQ(parse_cq_strategy("hybrid:0").text(), "hybrid:0");
}

// The polling study's default sweep is what each strategy says of itself (studied_as): each
// such text parses as that strategy, as the study's --cq will parse it.
TEST(CqStrategy, HowTheStudyRunsAStrategyParsesAsThatStrategy) {
  size_t studied = 0;
  for (const StrategyInfo& info : registered_strategies()) {
    if (info.studied_as.empty()) continue;
    ++studied;
    const CqStrategy parsed = parse_cq_strategy(std::string(info.studied_as));
    EXPECT_EQ(parsed.name, info.name) << info.studied_as;
    EXPECT_EQ(parsed.text(), info.studied_as);
  }
  EXPECT_GE(studied, 2u) << "the study compares strategies: at least busy and event";
}

TEST(CqStrategy, BothSidesOrEachItsOwn) {
  const CqChoice both = parse_cq_choice("epoll");
  EXPECT_EQ(both.client.name, "epoll");
  EXPECT_EQ(both.server.name, "epoll");
  EXPECT_EQ(both.text(), "epoll");
  const CqChoice mixed = parse_cq_choice("client=busy,server=moderated:8,10");
  EXPECT_EQ(mixed.client.text(), "busy");
  EXPECT_EQ(mixed.server.text(), "moderated:8,10");
  EXPECT_EQ(mixed.text(), "client=busy,server=moderated:8,10");
  EXPECT_EQ(parse_cq_choice("server=event,client=busy"),
            parse_cq_choice("client=busy,server=event"));
  // Alike on both sides reads as one.
  EXPECT_EQ(parse_cq_choice("client=event,server=event").text(), "event");
}

TEST(CqStrategy, ListsOfChoices) {
  EXPECT_EQ(parse_cq_choices("all").size(), 2u);
  EXPECT_EQ(parse_cq_choices("busy,event,epoll").size(), 3u);
  const auto list = parse_cq_choices("hybrid:5;client=busy,server=event;moderated:4,2");
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[1].server.name, "event");
  EXPECT_EQ(parse_cq_choices("busy;busy").size(), 1u);
}

TEST(CqStrategy, BadTextIsAUsageErrorThatSaysWhy) {
  EXPECT_NE(strategy_usage_error("spin").find("'spin' is unknown"), std::string::npos);
  EXPECT_NE(strategy_usage_error("spin").find("hybrid:<spin budget us>"), std::string::npos);
  EXPECT_NE(strategy_usage_error("hybrid").find("takes 1 argument"), std::string::npos);
  EXPECT_NE(strategy_usage_error("busy:3").find("takes 0 argument"), std::string::npos);
  EXPECT_NE(strategy_usage_error("moderated:16").find("takes 2 argument"), std::string::npos);
  EXPECT_NE(strategy_usage_error("hybrid:-1").find("not a whole number"), std::string::npos);
  EXPECT_NE(strategy_usage_error("hybrid:2x").find("not a whole number"), std::string::npos);
  EXPECT_NE(strategy_usage_error("hybrid:99999999").find("above the limit"), std::string::npos);
  EXPECT_NE(strategy_usage_error("moderated:70000,1").find("above the limit 65535"),
            std::string::npos);
  EXPECT_NE(strategy_usage_error("client=busy").find("name both sides"), std::string::npos);
  EXPECT_NE(strategy_usage_error("client=busy,server=nap").find("'nap' is unknown"),
            std::string::npos);
  EXPECT_NE(strategy_usage_error("").find("unknown"), std::string::npos);
  EXPECT_NE(strategy_usage_error("busy;").find("unknown"), std::string::npos);
}

// One rule for every named value: any case ("BUSY", as --transport UD was taken), and a
// repeat runs once.
TEST(CqStrategy, NamesAreTakenInAnyCaseAndARepeatRunsOnce) {
  const auto list = parse_cq_choices("BUSY;Hybrid:50;busy");
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].text(), "busy");
  EXPECT_EQ(list[1].text(), "hybrid:50");
  EXPECT_EQ(parse_cq_choices("ALL").size(), 2u);
  EXPECT_EQ(parse_cq_choice("CLIENT=Busy,SERVER=EVENT").text(), "client=busy,server=event");
}

// `--cq busy,hybrid:50` said "'busy,hybrid' is unknown": a comma separates choices only while
// none takes arguments.
TEST(CqStrategy, ACommaBeforeAChoiceWithArgumentsIsToldToBeASemicolon) {
  const std::string why = strategy_usage_error("busy,hybrid:50");
  EXPECT_NE(why.find("separate CQ strategies with ';'"), std::string::npos) << why;
  EXPECT_NE(why.find("--cq 'busy;hybrid:50'"), std::string::npos) << why;
}
