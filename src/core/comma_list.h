// The one splitter of every comma-separated option value (--pattern, --mode, --qps, --rate,
// --sizes, --cpus, mesh's --mode, --device, --address): the items as written, in order; and the
// registries' two lookups by name: a list of names, and the entry of one.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdmabench {

// "a,b,,c" -> {"a", "b", "", "c"}: an empty item stays, for the caller to refuse in its own
// words; a trailing comma adds none, and "" gives no item. Spaces and tabs around an item are
// not part of it ("write, read" is two patterns, as "2, 64K" is two sizes).
std::vector<std::string> split_comma_list(const std::string& text);

// A name as every option reads it: in any case (perftest writes -c UD), lower-case here.
std::string lower_case(std::string_view name);

// The other way: "a, b, c" for messages and --help, each item as `name_of` gives it; with
// separator "," a list that split_comma_list reads back ("0,2,3").
template <typename Items, typename NameOf>
std::string join_comma_list(const Items& items, NameOf name_of, const char* separator = ", ") {
  std::string all;
  for (const auto& item : items) {
    if (!all.empty()) all += separator;
    all += name_of(item);
  }
  return all;
}

// The entry of a registry (patterns, transports: handles whose ->name is the registered name)
// called `name`, or nullopt.
template <typename Entry>
std::optional<Entry> find_named(const std::vector<Entry>& entries, const std::string& name) {
  for (const Entry& e : entries)
    if (e->name == name) return e;
  return std::nullopt;
}

}  // namespace rdmabench
