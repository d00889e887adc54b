// The named lists of run's options (--pattern, --mode): one rule with --transport and --cq
// for case and repeats.
#include "cli/list_option.h"

#include <gtest/gtest.h>

#include "bench/pattern_catalogue.h"
#include "core/error.h"
#include "spec/test_spec.h"

using namespace rdmabench;

namespace {

std::vector<Mode> modes(const std::string& text) {
  return parse_list<Mode>(text, parse_mode, {Mode::kBandwidth, Mode::kLatency}, "mode", "bw, lat");
}

std::vector<Pattern> patterns(const std::string& text) {
  return parse_list<Pattern>(text, parse_pattern, registered_patterns(), "pattern",
                             pattern_names());
}

}  // namespace

// --transport UD was taken, --pattern WRITE, --mode BW and --cq BUSY refused.
TEST(ListOption, NamesAreTakenInAnyCase) {
  EXPECT_EQ(modes("BW"), std::vector<Mode>{Mode::kBandwidth});
  EXPECT_EQ(modes("Lat,bw"), (std::vector<Mode>{Mode::kLatency, Mode::kBandwidth}));
  EXPECT_EQ(modes("ALL").size(), 2u);
  ASSERT_EQ(patterns("WRITE,Fetch_Add").size(), 2u);
  EXPECT_EQ(patterns("WRITE,Fetch_Add")[1].name(), "fetch_add");
}

// --pattern write,write ran one benchmark twice.
TEST(ListOption, ARepeatRunsOnce) {
  EXPECT_EQ(modes("bw,BW,bw"), std::vector<Mode>{Mode::kBandwidth});
  const auto p = patterns("write,read,WRITE");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].name(), "write");
  EXPECT_EQ(p[1].name(), "read");
}

TEST(ListOption, AnUnknownNameIsRefusedWithTheChoices) {
  try {
    modes("bw,fast");
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage);
    EXPECT_NE(std::string(e.what()).find("--mode: unknown value 'fast' (choices: bw, lat"),
              std::string::npos)
        << e.what();
  }
}
