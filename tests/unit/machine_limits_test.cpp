// --limits-file (runner/machine_limits.h) and the machine type it is keyed by
// (host/machine_type.h), on crafted files and a fake sysfs tree.
#include "runner/machine_limits.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "fake_sysfs.h"
#include "host/machine_type.h"

namespace rdmabench {
namespace {

const nlohmann::json kFile = nlohmann::json::parse(R"({
  "machine_types": {"Standard_ND96asr_v4": {"min_bw": 180, "max_lat": "p99:5"},
                    "PowerEdge XE9680": {"min_bw": "350.5"}},
  "default": {"min_bw": 20}})");

TEST(MachineLimits, AHostTakesItsOwnEntryElseTheDefault) {
  const MachineLimits nd = machine_limits(kFile, "Standard_ND96asr_v4", "f");
  EXPECT_EQ(nd.entry, "Standard_ND96asr_v4");
  EXPECT_DOUBLE_EQ(*nd.limits.min_bw_gbps, 180);
  ASSERT_TRUE(nd.limits.max_lat);
  EXPECT_EQ(nd.limits.max_lat->counter, "lat_p99_us");
  EXPECT_DOUBLE_EQ(nd.limits.max_lat->us, 5);
  EXPECT_EQ(nd.max_lat_text, "p99:5");
  EXPECT_DOUBLE_EQ(*machine_limits(kFile, "PowerEdge XE9680", "f").limits.min_bw_gbps, 350.5);
  const MachineLimits other = machine_limits(kFile, "Some Laptop", "f");
  EXPECT_EQ(other.entry, "default");
  EXPECT_DOUBLE_EQ(*other.limits.min_bw_gbps, 20);
  EXPECT_FALSE(other.limits.max_lat);
  EXPECT_EQ(machine_limits(kFile, "", "f").entry, "default");  // no DMI here
}

std::string refusal(const std::string& text, const std::string& type = "m") {
  try {
    machine_limits(nlohmann::json::parse(text), type, "--limits-file x.json");
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage);
    return e.what();
  }
  return "<accepted>";
}

// A misspelt limit is not silently no limit; a bad entry of another machine type fails on
// every host; values from the file are printed escaped.
TEST(MachineLimits, EveryMistakeIsRefusedNamingWhereItIs) {
  EXPECT_EQ(refusal(R"({"default": {"min-bw": 20}})"),
            "--limits-file x.json: default has 'min-bw', which it does not take (it takes "
            "min_bw, max_lat)");
  EXPECT_EQ(refusal(R"({"defaults": {"min_bw": 20}})"),
            "--limits-file x.json: the file has 'defaults', which it does not take (it takes "
            "machine_types, default)");
  EXPECT_EQ(
      refusal(R"({"machine_types": {"a": {"max_lat": "p98:5"}}, "default": {"min_bw": 1}})"),
      "--limits-file x.json: machine type 'a': " + [] {
        try {
          parse_latency_limit("p98:5");
        } catch (const Error& e) {
          return std::string(e.what());
        }
        return std::string();
      }());
  EXPECT_NE(refusal(R"({"default": {"min_bw": 0}})").find("default: "), std::string::npos);
  EXPECT_NE(refusal(R"({"default": {"min_bw": [1]}})").find("min_bw must be Gb/s, not [1]"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"default": {"max_lat": 5}})").find("max_lat must be STATISTIC:US"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"default": {}})").find("default holds no limit"), std::string::npos);
  EXPECT_NE(
      refusal(R"({"machine_types": [], "default": {"min_bw": 1}})").find("machine_types must"),
      std::string::npos);
  EXPECT_NE(refusal("[]").find("the file must be an object"), std::string::npos);
  EXPECT_EQ(refusal(R"({"machine_types": {"a": {"min_bw": 1}}})", "b\x1b[31m"),
            "--limits-file x.json: no entry for this host's machine type 'b\\x1b[31m' (DMI "
            "product_name) and no \"default\"");
  EXPECT_NE(refusal(R"({"machine_types": {"\u001b]0;x\u0007": {"min_bw": "x"}}})")
                .find("machine type '\\x1b]0;x\\x07'"),
            std::string::npos);
}

TEST(MachineLimits, TooManyMachineTypesAreRefused) {
  nlohmann::json file = {{"default", {{"min_bw", 1}}}, {"machine_types", nlohmann::json::object()}};
  for (int i = 0; i < 4097; ++i) file["machine_types"]["m" + std::to_string(i)] = {{"min_bw", 1}};
  EXPECT_THROW(machine_limits(file, "m1", "f"), Error);
  file["machine_types"].erase("m0");
  EXPECT_EQ(machine_limits(file, "m1", "f").entry, "m1");
}

TEST(MachineLimits, AFileTooDeepOrNotJsonIsRefusedBeforeItIsUsed) {
  testing::FakeSysfsTree dir;
  dir.write("deep.json", std::string(20, '[') + std::string(20, ']'));
  dir.write("bad.json", "{\"default\": ");
  for (const char* name : {"deep.json", "bad.json", "missing.json"}) {
    try {
      read_machine_limits((dir.root() / name).string(), "m");
      ADD_FAILURE() << name;
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), ExitCode::kUsage) << name;
      EXPECT_NE(std::string(e.what()).find("--limits-file "), std::string::npos) << e.what();
    }
  }
}

TEST(MachineType, DmiProductNameTrimmedAndBounded) {
  testing::FakeSysfsTree sys;
  EXPECT_EQ(machine_type(sys.root()), "");
  sys.write("class/dmi/id/product_name", "  Standard_ND96asr_v4 ");
  EXPECT_EQ(machine_type(sys.root()), "Standard_ND96asr_v4");
  sys.write("class/dmi/id/product_name", std::string(1000, 'x'));
  EXPECT_EQ(machine_type(sys.root()).size(), 256u);
}

}  // namespace
}  // namespace rdmabench
