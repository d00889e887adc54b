#include "runner/benchmark_filter.h"

#include <regex>

#include "core/error.h"

namespace rdmabench {

std::string registered_name(const TestSpec& spec, const SuiteOptions& options) {
  std::string name = spec.name();
  if (options.duration_ns > 0) {
    name += "/iterations:1";
  } else if (options.iterations) {
    name += "/iterations:" + std::to_string(*options.iterations);
  }
  return name + "/manual_time";
}

size_t count_selected(const std::vector<TestSpec>& specs, const SuiteOptions& options,
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
  size_t selected = 0;
  for (const TestSpec& spec : specs)
    if (std::regex_search(registered_name(spec, options), regex) != negative) ++selected;
  if (selected > 0 || specs.empty()) return selected;
  std::string examples;
  for (size_t i = 0; i < specs.size() && i < 3; ++i) {
    if (i > 0) examples += ", ";
    examples += registered_name(specs[i], options);
  }
  throw Error(ExitCode::kUsage, "--benchmark_filter '" + filter + "' selects none of the " +
                                    std::to_string(specs.size()) +
                                    " benchmarks this command line asks for (such as " + examples +
                                    "); widen it, or change --pattern, --mode, --cq or --sizes");
}

}  // namespace rdmabench
