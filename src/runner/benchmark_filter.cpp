#include "runner/benchmark_filter.h"

#include <algorithm>
#include <regex>
#include <span>

#include "core/comma_list.h"
#include "core/error.h"

namespace rdmabench {

namespace {

// '^write/bw/busy/65536$' matched nothing: every name ends in /manual_time.
std::string anchored_hint(const std::string& filter) {
  if (!filter.ends_with("$") || filter.ends_with("manual_time$")) return "";
  return ": every name ends in /manual_time, so end an anchored filter with /manual_time$";
}

}  // namespace

std::string registered_name(const TestSpec& spec, const RunLength& length) {
  std::string name = spec.name();
  if (const auto n = registered_iterations(length)) name += "/iterations:" + std::to_string(*n);
  return name + "/manual_time";
}

std::vector<TestSpec> selected_specs(const std::vector<TestSpec>& specs, const RunLength& length,
                                     const std::string& filter) {
  std::string expression = filter.empty() || filter == "all" ? "." : filter;
  const bool negative = expression.front() == '-';
  if (negative) expression.erase(0, 1);
  std::regex regex;
  try {
    regex = std::regex(expression, std::regex::extended);
  } catch (const std::regex_error& e) {
    throw Error(ExitCode::kUsage, "--benchmark_filter '" + filter +
                                      "' is not a regular expression (" + e.what() + ")");
  }
  std::vector<TestSpec> selected;
  for (const TestSpec& spec : specs)
    if (std::regex_search(registered_name(spec, length), regex) != negative)
      selected.push_back(spec);
  if (!selected.empty() || specs.empty()) return selected;
  const std::string examples =
      join_comma_list(std::span(specs).first(std::min<size_t>(specs.size(), 3)),
                      [&](const TestSpec& spec) { return registered_name(spec, length); });
  throw Error(ExitCode::kUsage, "--benchmark_filter '" + filter + "' selects none of the " +
                                    std::to_string(specs.size()) +
                                    " benchmarks this command line asks for (such as " + examples +
                                    ")" + anchored_hint(filter) +
                                    "; widen it, or change --pattern, --mode, --cq or --sizes");
}

size_t count_selected(const std::vector<TestSpec>& specs, const RunLength& length,
                      const std::string& filter) {
  return selected_specs(specs, length, filter).size();
}

}  // namespace rdmabench
