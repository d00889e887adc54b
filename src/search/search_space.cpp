#include "search/search_space.h"

#include <algorithm>
#include <sstream>

#include "core/error.h"
#include "spec/test_spec.h"

namespace rdmabench {

namespace {

Error bad_space(const std::string& item, const std::string& why) {
  return Error(ExitCode::kUsage, "--space '" + item.substr(0, 60) + "': " + why);
}

std::vector<std::string> split_on(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator))
    if (!part.empty()) parts.push_back(part);
  return parts;
}

uint64_t size_in(const std::string& item, const std::string& text) {
  const std::optional<uint64_t> v = parse_size(text);
  if (!v) throw bad_space(item, "'" + text.substr(0, 20) + "' is not a number (2, 64K, 1M)");
  return *v;
}

// The values of `d` that `wanted` (a list, or low:high on an ordered dimension) keeps.
std::vector<std::string> kept_values(const Dimension& d, const std::string& item,
                                     const std::string& wanted) {
  std::vector<std::string> kept;
  if (d.ordered && wanted.find(':') != std::string::npos) {
    const size_t colon = wanted.find(':');
    const uint64_t low = size_in(item, wanted.substr(0, colon));
    const uint64_t high = size_in(item, wanted.substr(colon + 1));
    for (const std::string& v : d.values)
      if (ordered_value(v) >= low && ordered_value(v) <= high) kept.push_back(v);
    if (kept.empty()) throw bad_space(item, "no value of " + d.option + " lies in that range");
    return kept;
  }
  // (';' separates values that hold a ',' themselves: cq=busy;moderated:16,16)
  for (const std::string& w : split_on(wanted, wanted.find(';') != std::string::npos ? ';' : ',')) {
    const auto same = [&](const std::string& v) {
      return d.ordered ? ordered_value(v) == size_in(item, w) : v == w;
    };
    const auto it = std::find_if(d.values.begin(), d.values.end(), same);
    if (it == d.values.end())
      throw bad_space(item, "'" + w.substr(0, 20) + "' is not a value " + d.option + " takes");
    if (std::find(kept.begin(), kept.end(), *it) == kept.end()) kept.push_back(*it);
  }
  if (d.ordered)
    std::sort(kept.begin(), kept.end(),
              [](const auto& a, const auto& b) { return ordered_value(a) < ordered_value(b); });
  return kept;
}

// The dimension `option` names: its whole name, or the start of one name only (size: sizes).
std::vector<Dimension>::iterator named_dimension(std::vector<Dimension>& dims,
                                                 const std::string& item,
                                                 const std::string& option) {
  const auto exact = std::find_if(dims.begin(), dims.end(),
                                  [&](const Dimension& x) { return x.option == option; });
  if (exact != dims.end()) return exact;
  const auto starts = [&](const Dimension& x) { return x.option.starts_with(option); };
  const auto first = std::find_if(dims.begin(), dims.end(), starts);
  if (first == dims.end())
    throw bad_space(item, "'" + option.substr(0, 30) + "' is not searched (see --list-space)");
  if (std::find_if(first + 1, dims.end(), starts) != dims.end())
    throw bad_space(item, "'" + option.substr(0, 30) + "' names more than one option");
  return first;
}

}  // namespace

SearchSpace::SearchSpace(std::vector<Dimension> dimensions) : dimensions_(std::move(dimensions)) {}

const Dimension* SearchSpace::find(const std::string& option) const noexcept {
  for (const Dimension& d : dimensions_)
    if (d.option == option) return &d;
  return nullptr;
}

Point SearchSpace::base() const {
  Point p;
  for (const Dimension& d : dimensions_) p[d.option] = d.start;
  return p;
}

std::optional<size_t> SearchSpace::index_of(const std::string& option,
                                            const std::string& value) const {
  const Dimension* d = find(option);
  if (d == nullptr) return std::nullopt;
  const auto it = std::find(d->values.begin(), d->values.end(), value);
  if (it == d->values.end()) return std::nullopt;
  return static_cast<size_t>(it - d->values.begin());
}

uint64_t SearchSpace::size() const noexcept {
  uint64_t n = 1;
  for (const Dimension& d : dimensions_) {
    if (!d.values.empty() && n > UINT64_MAX / d.values.size()) return UINT64_MAX;
    n *= std::max<size_t>(d.values.size(), 1);
  }
  return n;
}

std::map<std::string, std::string> non_base(const SearchSpace& space, const Point& point) {
  std::map<std::string, std::string> out;
  for (const Dimension& d : space.dimensions()) {
    const auto it = point.find(d.option);
    if (it != point.end() && it->second != d.start) out[d.option] = it->second;
  }
  return out;
}

std::string options_text(const SearchSpace& space, const Point& point) {
  std::string out;
  for (const Dimension& d : space.dimensions()) {
    const auto it = point.find(d.option);
    if (it == point.end() || !d.given_for(it->second)) continue;
    out += (out.empty() ? "--" : " --") + d.option + (d.flag ? "" : " " + it->second);
  }
  return out;
}

std::string point_key(const Point& point) {
  std::string key;
  for (const auto& [option, value] : point) key += option + "=" + value + ";";
  return key;
}

SearchSpace restrict_space(const SearchSpace& space, const std::string& text) {
  std::vector<Dimension> dims = space.dimensions();
  for (const std::string& item : split_on(text, ' ')) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      throw bad_space(item, "write OPTION=VALUES (pattern=write,read sizes=4K:1M)");
    const auto d = named_dimension(dims, item, item.substr(0, eq));
    d->values = kept_values(*d, item, item.substr(eq + 1));
    const bool keeps_start =
        std::find(d->values.begin(), d->values.end(), d->start) != d->values.end();
    if (!keeps_start) d->start = d->values.front();
  }
  return SearchSpace(std::move(dims));
}

uint64_t ordered_value(const std::string& value) {
  return parse_size(value).value_or(0);
}

}  // namespace rdmabench
