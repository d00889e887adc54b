#include "core/comma_list.h"

#include <sstream>

namespace rdmabench {

std::vector<std::string> split_comma_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) items.push_back(item);
  return items;
}

}  // namespace rdmabench
