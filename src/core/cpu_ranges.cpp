#include "core/cpu_ranges.h"

#include "core/comma_list.h"

namespace rdmabench {

namespace {

// A CPU number of at most five digits, or -1.
int cpu_number(const std::string& text) {
  if (text.empty() || text.size() > 5 || text.find_first_not_of("0123456789") != std::string::npos)
    return -1;
  return std::stoi(text);
}

}  // namespace

std::variant<std::vector<int>, std::string> parse_cpu_ranges(std::string_view text) {
  if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  std::vector<int> cpus;
  for (const std::string& item : split_comma_list(std::string(text))) {
    const auto dash = item.find('-');
    const std::string first = item.substr(0, dash);
    const std::string last = dash == std::string::npos ? first : item.substr(dash + 1);
    const int lo = cpu_number(first);
    const int hi = cpu_number(last);
    if (lo < 0) return "'" + first + "' is not a CPU number";
    if (hi < 0) return "'" + last + "' is not a CPU number";
    if (hi < lo) return "range '" + item + "' goes down";
    for (int c = lo; c <= hi; ++c) cpus.push_back(c);
  }
  if (cpus.empty()) return std::string("no CPUs");
  return cpus;
}

std::string cpu_list_text(const std::vector<int>& cpus) {
  return join_comma_list(
      cpus, [](int cpu) { return std::to_string(cpu); }, ",");
}

}  // namespace rdmabench
