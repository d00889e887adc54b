// A command line for a parser that takes (argc, argv) as main hands them on: the words kept
// alive, argv ending in a null pointer as C promises.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.h"

namespace rdmabench::testing {

class CommandLine {
 public:
  explicit CommandLine(std::vector<std::string> words) : words_(std::move(words)) {
    for (std::string& w : words_) pointers_.push_back(w.data());
    pointers_.push_back(nullptr);
  }
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  int argc() const { return static_cast<int>(words_.size()); }
  char** argv() { return pointers_.data(); }

 private:
  std::vector<std::string> words_;
  std::vector<char*> pointers_;
};

// What `parse` (a parser run on a command line) refuses: the text of its usage error (exit 2);
// a failure of the test where it accepts, or refuses with another exit code.
template <typename Parse>
std::string usage_refusal(Parse parse) {
  try {
    parse();
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "accepted";
  return "";
}

}  // namespace rdmabench::testing
