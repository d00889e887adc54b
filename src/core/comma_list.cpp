#include "core/comma_list.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace rdmabench {

std::vector<std::string> split_comma_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    const auto first = item.find_first_not_of(" \t");
    const auto last = item.find_last_not_of(" \t");
    items.push_back(first == std::string::npos ? std::string()
                                               : item.substr(first, last - first + 1));
  }
  return items;
}

std::string lower_case(std::string_view name) {
  std::string out(name);
  std::ranges::transform(out, out.begin(),
                         [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace rdmabench
