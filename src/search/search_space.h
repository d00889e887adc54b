// What `rdmabench search` explores: dimensions, each a `rdmabench run` option and the values
// it may take, and points, each a value for every dimension. The dimensions come from what
// the engine registers and declares (cli/search_dimensions.cpp); nothing here names one.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rdmabench {

struct Dimension {
  std::string option;               // the run option without its dashes: "sizes"
  std::vector<std::string> values;  // what it may take; ascending when ordered
  std::string fallback;             // what a run takes when the option is not given
  std::string start;     // where the search starts it: the fallback, unless --space left it out
  bool ordered = false;  // numeric: the rules compare neighbours along it (values parse as sizes)
  bool flag = false;     // values "off" and "on": given as --option, or not at all
  // Whether a run is given the option for `value`: not for the fallback, nor a flag's "off".
  bool given_for(const std::string& value) const {
    return value != fallback && !(flag && value == "off");
  }
  bool operator==(const Dimension&) const = default;
};

// A value for every dimension, by option name.
using Point = std::map<std::string, std::string>;

class SearchSpace {
 public:
  SearchSpace() = default;
  explicit SearchSpace(std::vector<Dimension> dimensions);

  const std::vector<Dimension>& dimensions() const noexcept { return dimensions_; }
  const Dimension* find(const std::string& option) const noexcept;
  // Every dimension at its start: the run with no option given, within --space.
  Point base() const;
  // Where `value` sits along `option` (nullopt: not one of its values).
  std::optional<size_t> index_of(const std::string& option, const std::string& value) const;
  // How many points the space holds (saturating at UINT64_MAX).
  uint64_t size() const noexcept;

 private:
  std::vector<Dimension> dimensions_;
};

// The options of `point` that differ from what a run takes without them, as a command
// line's tail: "--pattern send --qps 8" (in dimension order).
std::string options_text(const SearchSpace& space, const Point& point);
// The options that differ from the search's base, by name.
std::map<std::string, std::string> non_base(const SearchSpace& space, const Point& point);
// One text per point, the same for equal points (its state file's key).
std::string point_key(const Point& point);

// --space: "pattern=write,read sizes=4K:1M qps=1:16": each named dimension keeps only the
// values given (an ordered one: a range low:high of its values, or a list); a dimension named
// with one value is fixed there, and becomes the base; values that hold a ',' are separated by
// ';' (cq=busy;moderated:16,16). Throws Error(kUsage) naming the item.
SearchSpace restrict_space(const SearchSpace& space, const std::string& text);

// The numeric value of an ordered dimension's value ("64K" -> 65536).
uint64_t ordered_value(const std::string& value);

}  // namespace rdmabench
