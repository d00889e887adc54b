// A comma list of named values (--mode bw,lat; --pattern write,read) or "all": each item
// parsed by the registry's own parser, an unknown one named with the choices. The rule of
// every named value: any case is taken, and a value named twice runs once.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/comma_list.h"
#include "core/error.h"

namespace rdmabench {

template <typename T>
std::vector<T> parse_list(const std::string& text, std::optional<T> (*parse)(const std::string&),
                          const std::vector<T>& all, const char* option,
                          const std::string& choices) {
  if (lower_case(text) == "all") return all;
  std::vector<T> out;
  bool all_in_list = false;
  for (const std::string& written : split_comma_list(text)) {
    const std::string item = lower_case(written);
    auto v = parse(item);
    if (v) {
      if (std::find(out.begin(), out.end(), *v) == out.end()) out.push_back(*v);
    } else if (item == "all") {
      all_in_list = true;  // said after any unknown value, which is the likelier slip
    } else {
      throw Error(ExitCode::kUsage, std::string("--") + option + ": unknown value '" + written +
                                        "' (choices: " + choices + ", or all alone)");
    }
  }
  if (all_in_list)
    throw Error(ExitCode::kUsage, std::string("--") + option + " " + text +
                                      ": 'all' stands alone, not in a list (choices: " + choices +
                                      ")");
  if (out.empty()) throw Error(ExitCode::kUsage, std::string("--") + option + " is empty");
  return out;
}

}  // namespace rdmabench
