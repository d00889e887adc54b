#include "cli/repeated_options.h"

#include <map>
#include <set>
#include <string>

#include "core/error.h"
#include "core/printable_text.h"

namespace rdmabench {
namespace {

// The names (cxxopts' first long name, as a parsed argument's key) of the options that take a
// value.
std::set<std::string> options_with_a_value(const cxxopts::Options& options) {
  std::set<std::string> names;
  for (const std::string& group : options.groups())
    for (const cxxopts::HelpOptionDetails& o : options.group_help(group).options)
      if (!o.is_boolean && !o.has_implicit && !o.l.empty()) names.insert(o.l.front());
  return names;
}

std::string in_quotes(const std::string& value) {
  return "'" + printable(value, Keep::kUtf8, 40) + "'";
}

}  // namespace

void refuse_repeated_options(const cxxopts::Options& options, const cxxopts::ParseResult& args) {
  const std::set<std::string> with_value = options_with_a_value(options);
  std::map<std::string, std::string> first;
  for (const cxxopts::KeyValue& given : args.arguments()) {
    if (!with_value.contains(given.key())) continue;
    const auto [seen, is_first] = first.emplace(given.key(), given.value());
    if (is_first) continue;
    throw Error(ExitCode::kUsage, "--" + given.key() + " given twice (" + in_quotes(seen->second) +
                                      ", then " + in_quotes(given.value()) +
                                      "): give it once (several values as one list, where it "
                                      "takes one: a,b)");
  }
}

}  // namespace rdmabench
