// The control fuzzer's seed corpus (tests/fuzz/corpus/control) and its target, in the ordinary
// build: the target compiles with the engine it drives (a changed TestHost breaks this build,
// not only the clang build that ./tools/test makes later), every seed runs through it, and no
// seed has gone stale. A seed the server refuses for an old protocol version or a missing
// field reaches none of the code behind that check, so the fuzzer would start from nothing.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "messages/control_channel.h"
#include "messages/protocol_version.h"
#include "session/control_protocol.h"
#include "verbs/verbs_error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

using namespace rdmabench;

namespace {

class CountingHost final : public TestHost {
 public:
  void setup(const TestSpec&) override { ++setups; }
  SideReport run(const RunOrder&) override {
    ++runs;
    return {};
  }
  void teardown() override {}
  ServerPath path() override { return {}; }
  void result(const ClientFigures&) override {}
  int setups = 0;
  int runs = 0;
};

std::string read_all(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The server's answer to the first line it refuses, or "" when it takes every line.
std::string first_refusal(const std::string& seed, CountingHost& host) {
  ControlProtocol protocol(host, ServerDetails{.version = "test"});
  std::istringstream lines(seed);
  std::string line;
  try {
    while (std::getline(lines, line) && !protocol.finished())
      protocol.handle(parse_control_message(line, "seed"));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::vector<std::filesystem::path> seeds() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(RDMABENCH_FUZZ_CORPUS))
    files.push_back(entry.path());
  return files;
}

}  // namespace

TEST(FuzzCorpus, EverySeedRunsThroughTheFuzzTarget) {
  ASSERT_FALSE(seeds().empty()) << RDMABENCH_FUZZ_CORPUS;
  for (const auto& file : seeds()) {
    const std::string seed = read_all(file);
    // What can fail here: an exception out of the target (libFuzzer would stop on it) or a
    // crash; the target's return value is always 0, as libFuzzer requires, and says nothing.
    EXPECT_NO_THROW(
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(seed.data()), seed.size()))
        << file;
  }
}

TEST(FuzzCorpus, SeedsSpeakTheCurrentProtocol) {
  int setups = 0, runs = 0;
  for (const auto& file : seeds()) {
    CountingHost host;
    const std::string refusal = first_refusal(read_all(file), host);
    const bool meant_to_mismatch = file.filename() == "protocol-mismatch";
    EXPECT_EQ(refusal.find("protocol version mismatch") != std::string::npos, meant_to_mismatch)
        << file << ": " << refusal << " (this build speaks protocol " << kControlProtocolVersion
        << ")";
    EXPECT_EQ(refusal.find("is missing"), std::string::npos) << file << ": " << refusal;
    setups += host.setups;
    runs += host.runs;
  }
  // Together the seeds reach the host: a set-up endpoint and a run on it.
  EXPECT_GT(setups, 0);
  EXPECT_GT(runs, 0);
}

// The fuzzer's dictionary (tests/fuzz/control.dict) offers the version this build speaks: a
// stale token builds hellos the server refuses before anything behind the version check.
TEST(FuzzCorpus, TheDictionaryOffersTheCurrentProtocol) {
  const auto dict =
      std::filesystem::path(RDMABENCH_FUZZ_CORPUS).parent_path().parent_path() / "control.dict";
  const std::string text = read_all(dict);
  ASSERT_FALSE(text.empty()) << dict;
  const std::string token =
      "\"\\\"protocol\\\":" + std::to_string(kControlProtocolVersion) + "\"\n";
  EXPECT_NE(text.find(token), std::string::npos) << dict << " lacks " << token;
}
